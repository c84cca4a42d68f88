package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CrashWriterOutputTest {

    @Test
    void collectsAcknowledgedIndicesAndIgnoresALineCutByTheKill() {
        String printed = "open\nacked 1002\nacked 1000\nacked 1001\nacked 10";
        CrashWriterOutput output = new CrashWriterOutput(
                new ByteArrayInputStream(printed.getBytes(StandardCharsets.US_ASCII)), 1000);
        output.run();
        assertTrue(output.awaitOpen(1));
        // "acked 10" was cut from "acked 1003" by the kill: below the first index, so not counted.
        assertEquals(3, output.acknowledgedCount());
        assertArrayEquals(new long[] {1000, 1001, 1002}, output.acknowledged());
    }

    @Test
    void aWriterThatExitsBeforeOpeningIsNotOpen() {
        CrashWriterOutput output = new CrashWriterOutput(
                new ByteArrayInputStream("Exception in thread main\n".getBytes(StandardCharsets.US_ASCII)), 0);
        output.run();
        assertFalse(output.awaitOpen(1));
        assertEquals(0, output.acknowledgedCount());
    }

    @Test
    void malformedLinesCountForNothing() {
        CrashWriterOutput output = new CrashWriterOutput(new ByteArrayInputStream(new byte[0]), 0);
        output.accept("acked");
        output.accept("acked x");
        output.accept("acked -5");
        output.accept("acked 7");
        assertEquals(1, output.acknowledgedCount());
    }
}
