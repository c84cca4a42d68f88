package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AccessLogWriterTest {

    /** A root appender that holds back every line until let go, as a full pipe would. */
    private static final class StalledAppender extends ListAppender<ILoggingEvent> {
        final CountDownLatch letGo = new CountDownLatch(1);

        @Override
        protected void append(ILoggingEvent e) {
            try {
                letGo.await();
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
            super.append(e);
        }
    }

    private static LoggerContext newContext() {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        return context;
    }

    @Test
    void accessLinesReachTheRootsAppendersFromAnotherThreadAsLoggedAndNoneIsLost() throws Exception {
        LoggerContext context = newContext();
        StalledAppender out = new StalledAppender();
        out.setContext(context);
        out.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.addAppender(out);
        context.getLogger(AccessLogWriter.ACCESS_LOGGER).setLevel(Level.INFO);
        assertTrue(AccessLogWriter.install(context));

        int lines = AccessLogWriter.QUEUE / 2;
        Thread network = new Thread(() -> {
            Logger access = context.getLogger(AccessLogWriter.ACCESS_LOGGER);
            for (int i = 0; i < lines; i++) {
                access.info("{} GET /b/k 200", i);
            }
        }, "network-thread");
        network.start();
        // The output is stalled, yet the logging thread is done: it only queued its lines.
        network.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(network.isAlive(), "the logging thread waited for the output");
        assertTrue(out.list.isEmpty());

        out.letGo.countDown();
        context.stop();  // as at shutdown: what is queued is written out
        List<ILoggingEvent> written = out.list;
        assertEquals(lines, written.size());
        for (int i = 0; i < lines; i++) {
            ILoggingEvent e = written.get(i);
            assertEquals(i + " GET /b/k 200", e.getFormattedMessage());
            assertEquals("network-thread", e.getThreadName());
            assertEquals(AccessLogWriter.ACCESS_LOGGER, e.getLoggerName());
        }
    }

    @Test
    void otherLoggersAndAnAccessLoggerConfiguredOtherwiseAreLeftAlone() {
        LoggerContext context = newContext();
        ListAppender<ILoggingEvent> out = new ListAppender<>();
        out.setContext(context);
        out.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(out);
        context.getLogger(AccessLogWriter.ACCESS_LOGGER).setAdditive(false);
        assertFalse(AccessLogWriter.install(context), "an access logger that does not use the root's appenders");

        context.getLogger(AccessLogWriter.ACCESS_LOGGER).setAdditive(true);
        assertTrue(AccessLogWriter.install(context));
        context.getLogger("dev.cairn.service.s3.S3FrontDoor").error("request 1 failed");
        assertEquals(1, out.list.size(), "written at once, on the logging thread");
        assertEquals(Thread.currentThread().getName(), out.list.get(0).getThreadName());
    }
}
