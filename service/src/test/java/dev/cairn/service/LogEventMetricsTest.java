package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class LogEventMetricsTest {

    private static double count(SimpleMeterRegistry registry, String level) {
        return registry.get("logback.events").tag("level", level).counter().count();
    }

    @Test
    void countsLoggedEventsByLevelWithoutATurboFilter() {
        LoggerContext context = new LoggerContext();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LogEventMetrics.attach(context, new LogEventMetrics.CountingAppender(registry));
        Logger log = context.getLogger("some.library");
        log.setLevel(Level.INFO);

        log.warn("one");
        log.info("two");
        log.info("three");
        log.debug("below the level: not an event");
        log.error("four");

        assertEquals(1, count(registry, "warn"));
        assertEquals(2, count(registry, "info"));
        assertEquals(0, count(registry, "debug"));
        assertEquals(1, count(registry, "error"));
        assertTrue(context.getTurboFilterList().isEmpty(), "level checks consult no turbo filter");
    }

    @Test
    void keepsCountingAfterLoggingIsReconfigured() {
        LoggerContext context = new LoggerContext();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LogEventMetrics.attach(context, new LogEventMetrics.CountingAppender(registry));
        context.reset();
        context.getLogger("after.reset").warn("counted");
        assertEquals(1, count(registry, "warn"));
    }
}
