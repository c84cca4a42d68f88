package dev.cairn.service;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code logback_events_total{level}}, the log events per level, counted by an appender on the
 * root logger instead of Spring Boot's turbo filter (its auto-configuration is excluded in
 * application.yaml). Logback consults every turbo filter on every level check, and Jetty checks
 * {@code isDebugEnabled()} dozens of times per request: with the filter that was 1.5–3 % of a
 * hot GET's samples, without it an int comparison. An appender sees only events that are logged,
 * so the counts are the same for every logger that passes its events on to the root (all of
 * Cairn's and its libraries', unless configured otherwise).
 */
@Configuration(proxyBeanMethods = false)
public class LogEventMetrics {
    static final String APPENDER = "cairn-log-event-counter";

    @Bean
    public MeterBinder logEventMeters() {
        return registry -> {
            if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
                attach(context, new CountingAppender(registry));
            }
        };
    }

    /** Adds the counter to the root logger, and again whenever logging is reconfigured. */
    static void attach(LoggerContext context, CountingAppender appender) {
        appender.setContext(context);
        appender.setName(APPENDER);
        appender.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.detachAppender(APPENDER);
        root.addAppender(appender);
        context.addListener(new LoggerContextListener() {
            @Override
            public boolean isResetResistant() {
                return true;
            }

            @Override
            public void onReset(LoggerContext c) {
                appender.start();
                Logger r = c.getLogger(Logger.ROOT_LOGGER_NAME);
                r.detachAppender(APPENDER);
                r.addAppender(appender);
            }

            @Override
            public void onStart(LoggerContext c) {
            }

            @Override
            public void onStop(LoggerContext c) {
            }

            @Override
            public void onLevelChange(Logger logger, Level level) {
            }
        });
    }

    /** Counts each event by its level, under the names Micrometer's logback binder uses. */
    static final class CountingAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {
        private final Counter error;
        private final Counter warn;
        private final Counter info;
        private final Counter debug;
        private final Counter trace;

        CountingAppender(MeterRegistry registry) {
            error = counter(registry, "error");
            warn = counter(registry, "warn");
            info = counter(registry, "info");
            debug = counter(registry, "debug");
            trace = counter(registry, "trace");
        }

        private static Counter counter(MeterRegistry registry, String level) {
            return Counter.builder("logback.events").tag("level", level)
                    .description("Number of " + level + " level events that made it to the logs")
                    .baseUnit("events").register(registry);
        }

        @Override
        protected void append(ILoggingEvent event) {
            switch (event.getLevel().toInt()) {
                case Level.ERROR_INT -> error.increment();
                case Level.WARN_INT -> warn.increment();
                case Level.INFO_INT -> info.increment();
                case Level.DEBUG_INT -> debug.increment();
                case Level.TRACE_INT -> trace.increment();
                default -> {
                }
            }
        }
    }
}
