package dev.cairn.loadtest.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's I/O counters from {@code /proc/self/io}: what the kernel saw, whichever store
 * caused it. {@code writeBytes} counts bytes sent (or to be sent) to the block device;
 * {@code cancelledWriteBytes} those dirtied and then discarded (truncated or deleted before
 * writeback); {@code readCalls} every read system call, page-cache hits included.
 *
 * @param available false where the file cannot be read (not Linux, or a restricted kernel);
 *                  every other field is then 0
 *
 * <p>Thread-safety: immutable.
 */
public record ProcIo(boolean available, long readBytes, long writeBytes, long cancelledWriteBytes, long readCalls) {

    private static final Path FILE = Path.of("/proc/self/io");

    public static ProcIo read() {
        try {
            long readBytes = 0;
            long writeBytes = 0;
            long cancelled = 0;
            long syscr = 0;
            for (String line : Files.readAllLines(FILE)) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                long value = Long.parseLong(line.substring(colon + 1).trim());
                switch (line.substring(0, colon)) {
                    case "read_bytes" -> readBytes = value;
                    case "write_bytes" -> writeBytes = value;
                    case "cancelled_write_bytes" -> cancelled = value;
                    case "syscr" -> syscr = value;
                    default -> { }
                }
            }
            return new ProcIo(true, readBytes, writeBytes, cancelled, syscr);
        } catch (IOException | RuntimeException e) {
            return new ProcIo(false, 0, 0, 0, 0);
        }
    }

    /** Bytes that reached (or will reach) the device: written minus cancelled. */
    public long deviceBytesWritten() {
        return writeBytes - cancelledWriteBytes;
    }

    public ProcIo minus(ProcIo earlier) {
        return new ProcIo(available && earlier.available, readBytes - earlier.readBytes,
                writeBytes - earlier.writeBytes, cancelledWriteBytes - earlier.cancelledWriteBytes,
                readCalls - earlier.readCalls);
    }
}
