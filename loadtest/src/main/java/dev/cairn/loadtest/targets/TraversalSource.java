package dev.cairn.loadtest.targets;

import java.util.function.Predicate;

/**
 * What a backup-like traversal walks: every object of a store, listed then read. Thread-safety:
 * {@link #read} is safe for concurrent use; {@link #list} is called by one thread.
 */
public interface TraversalSource extends AutoCloseable {

    String describe();

    /** Hands every object's name to {@code sink}, in listing order, until it returns false. */
    void list(Predicate<String> sink) throws TargetException;

    /** Reads one object whole; returns its size. */
    long read(String name) throws TargetException;

    @Override
    void close();

    /** Traverses a bucket through S3: ListObjectsV2 pages, then GET of each key. */
    static TraversalSource of(S3Target s3) {
        return new TraversalSource() {
            @Override
            public String describe() {
                return s3.describe();
            }

            @Override
            public void list(Predicate<String> sink) throws TargetException {
                s3.listAll(sink);
            }

            @Override
            public long read(String name) throws TargetException {
                return s3.get(name).length;
            }

            @Override
            public void close() {
                s3.close();
            }
        };
    }
}
