package dev.cairn.loadtest.targets;

/**
 * What a run drives: a store addressed by key. Each call is one request; failures are thrown,
 * never retried (a retry would hide them from the error counts).
 *
 * <p>Thread-safety: implementations are safe for concurrent use by the run's threads.
 */
public interface Target extends AutoCloseable {

    /** A one-line description for reports (kind and address). */
    String describe();

    byte[] get(String key) throws TargetException;

    void put(String key, byte[] value) throws TargetException;

    /** Lists up to {@code limit} keys after {@code startAfter}; returns how many came back. */
    int scan(String startAfter, int limit) throws TargetException;

    /** Whether {@link #scan} is available (an S3 listing; a plain web server has none). */
    boolean canScan();

    /** Copies {@code source} to {@code destination} on the server side. */
    default void copy(String source, String destination) throws TargetException {
        throw new UnsupportedOperationException(describe() + " cannot copy");
    }

    /** Deletes {@code key}; deleting an absent key succeeds. */
    default void delete(String key) throws TargetException {
        throw new UnsupportedOperationException(describe() + " cannot delete");
    }

    /** Writes {@code value} under {@code key} as a multipart upload of one part. */
    default void multipartPut(String key, byte[] value) throws TargetException {
        throw new UnsupportedOperationException(describe() + " has no multipart uploads");
    }

    /** Whether {@link #copy}, {@link #delete} and {@link #multipartPut} are available (S3 only). */
    default boolean canCopyDeleteAndMultipart() {
        return false;
    }

    @Override
    void close();
}
