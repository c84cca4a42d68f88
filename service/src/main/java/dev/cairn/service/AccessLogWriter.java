package dev.cairn.service;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Configuration;

/**
 * Writes the access log ({@code dev.cairn.service.access}) from a thread of its own. A hot GET is
 * answered on Jetty's network thread, which also wrote its access-log line, and the console
 * appender writes each line to the process's output before it returns: a slow reader of that
 * output (a full pipe) stalled every connection of that thread. The lines now go through a
 * queue to the appenders the root logger has (the console, a log file, the log-event counter),
 * with the time, thread and text of the request's own moment. None is dropped: when the queue is
 * full the logging thread waits, as it did before; at shutdown the queue is written out.
 *
 * <p>Only logging as Spring Boot sets it up is changed: an access logger with appenders of its
 * own, or that does not pass its events on to the root, is left as configured. Set up once, when
 * the service has started; should logging be configured again while it runs, the access log is
 * written as before, on the request's thread.
 */
@Configuration(proxyBeanMethods = false)
public class AccessLogWriter implements ApplicationListener<ApplicationStartedEvent> {
    static final String ACCESS_LOGGER = "dev.cairn.service.access";
    static final String APPENDER = "cairn-access-log-writer";
    /** Lines waiting to be written; past it the logging thread waits. */
    static final int QUEUE = 8192;

    @Override
    public void onApplicationEvent(ApplicationStartedEvent event) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            install(context);
        }
    }

    /** Puts the access logger's lines through a queue, when it logs through the root's appenders only. */
    static boolean install(LoggerContext context) {
        Logger access = context.getLogger(ACCESS_LOGGER);
        if (!access.isAdditive() || access.iteratorForAppenders().hasNext()) {
            return false;
        }
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        ToRoot toRoot = new ToRoot(root);
        toRoot.setContext(context);
        toRoot.start();
        AsyncAppender writer = new AsyncAppender();
        writer.setContext(context);
        writer.setName(APPENDER);
        writer.setQueueSize(QUEUE);
        writer.setDiscardingThreshold(0);
        writer.setNeverBlock(false);
        writer.addAppender(toRoot);
        writer.start();
        // Stopped, and so written out, before the root's appenders when logging stops.
        context.register(writer);
        access.addAppender(writer);
        access.setAdditive(false);
        return true;
    }

    /** The root logger's appenders, whichever it has when a line is written. */
    static final class ToRoot extends UnsynchronizedAppenderBase<ILoggingEvent> {
        private final Logger root;

        ToRoot(Logger root) {
            this.root = root;
        }

        @Override
        protected void append(ILoggingEvent event) {
            root.callAppenders(event);
        }
    }
}
