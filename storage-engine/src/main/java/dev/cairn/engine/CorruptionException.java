package dev.cairn.engine;

import java.io.IOException;

/** Stored bytes failed their checksum or structure check. The message names the file. */
public final class CorruptionException extends IOException {
    public CorruptionException(String message) {
        super(message);
    }
}
