package dev.cairn.engine;

import java.io.IOException;

/**
 * A write was refused because the engine's file system is (nearly) full: nothing of it was
 * written, and the same write succeeds once space is freed, without reopening the engine. Reads
 * go on meanwhile, and so do deletes while the reserve lasts ({@link EngineOptions#reservedDiskBytes()}).
 */
public final class DiskFullException extends IOException {
    public DiskFullException(String message) {
        super(message);
    }

    /** Whether {@code e}, or an exception it was caused by, says the device ran out of space. */
    public static boolean isNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DiskFullException) {
                return true;
            }
            String message = t.getMessage();
            if (message != null && message.contains("No space left on device")) {
                return true;
            }
        }
        return false;
    }
}
