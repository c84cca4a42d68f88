package dev.cairn.store;

import java.io.IOException;

/**
 * Content vanished while it was being read: every object holding it was overwritten or deleted
 * and the store reclaimed it, or (on a replica read at a weak consistency level) the part read
 * has not arrived yet. A reader that can tell the two apart by reopening the content does so.
 */
public final class ContentGoneException extends IOException {
    public ContentGoneException(String message) {
        super(message);
    }
}
