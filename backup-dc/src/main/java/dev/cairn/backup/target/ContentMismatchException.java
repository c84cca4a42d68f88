package dev.cairn.backup.target;

/**
 * Content that is not what its hash names: other bytes, or more or fewer of them. Unlike a failed
 * read, reading it again gives the same answer.
 */
public class ContentMismatchException extends SourceReadException {
    public ContentMismatchException(String message) {
        super(message);
    }
}
