package dev.cairn.service.s3;

/**
 * Thrown on a thread that must not wait ({@link HttpExchange#mayBlock()} false) when serving the
 * request would wait: on a store read, a blocking write or the request body. It is always thrown
 * before the answer is committed; the request is then served again from the start on a thread
 * that may wait. One instance, without a stack trace: it is control flow, not a failure.
 */
public final class WouldBlock extends RuntimeException {
    public static final WouldBlock INSTANCE = new WouldBlock();

    private WouldBlock() {
        super("serving this request would block", null, false, false);
    }
}
