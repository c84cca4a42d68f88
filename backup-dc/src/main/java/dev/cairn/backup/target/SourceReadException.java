package dev.cairn.backup.target;

import java.io.IOException;

/**
 * A failure of the stream a target was writing from (the source, or a content check), as opposed
 * to the target itself; targets pass it through unchanged so the message names the real cause.
 */
public class SourceReadException extends IOException {
    public SourceReadException(String message) {
        super(message);
    }

    public SourceReadException(String message, Throwable cause) {
        super(message, cause);
    }
}
