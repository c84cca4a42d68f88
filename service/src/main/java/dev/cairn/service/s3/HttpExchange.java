package dev.cairn.service.s3;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * One HTTP request and its response as the S3 layer uses them, so that the handlers depend on no
 * server API. Not thread-safe: one per request.
 */
public interface HttpExchange {

    String method();

    /** The path exactly as sent, still percent-encoded. */
    String rawPath();

    /** The query exactly as sent, without the {@code ?}; null when absent. */
    String rawQuery();

    /** The host the client addressed, without port. */
    String serverName();

    String remoteAddr();

    /** The first value of a request header (name case-insensitive), or null. */
    String header(String name);

    /** Every request header: lower-case name → values in the order received. */
    Map<String, List<String>> headers();

    /** The request's Content-Length, or -1 when it has none. */
    long contentLength();

    /** The request body; reading it first sends {@code 100 Continue} when the client waits for it. */
    InputStream body() throws IOException;

    /** The response status set so far (200 until set). */
    int status();

    void setStatus(int status);

    /** Sets a response header, replacing any value it had; a null value removes it. */
    void setHeader(String name, String value);

    /** A response header's current value, or null. */
    String responseHeader(String name);

    void setContentLength(long length);

    /**
     * Writes part of a body whose Content-Length is already set, blocking until the server has
     * taken the bytes; the last write completes the response (a body in one write leaves together
     * with the headers).
     */
    void write(ByteBuffer bytes, boolean last) throws IOException;

    /**
     * Writes the rest of a body that is all in memory as the last write, without waiting for the
     * client to take it, so that a slow reader holds no thread. {@code written} runs once, when
     * the bytes are out or the connection failed, with the number of them the connection took
     * (all, or fewer when the client left mid-body); until then {@code bytes} must stay unchanged.
     * False when this exchange cannot (nothing is written then, and {@code written} never runs).
     */
    default boolean writeLastDetached(ByteBuffer bytes, java.util.function.LongConsumer written) {
        return false;
    }

    /**
     * Runs {@code action} once the answer is complete: after the request was served and any
     * detached write ended. Its argument is null, or why the answer failed (the client gone).
     * Exchanges without detached writes run it at once. Set once per exchange.
     */
    default void whenComplete(java.util.function.Consumer<Throwable> action) {
        action.accept(null);
    }

    boolean isCommitted();

    /**
     * False when the exchange is served on a thread that must not wait (the network's): then
     * {@link #write}, {@link #body} and any other step that would wait throw {@link WouldBlock}
     * before the answer is committed, and the request is served again on a thread that may.
     */
    default boolean mayBlock() {
        return true;
    }

    /** Forgets status, headers and anything buffered; only before the response is committed. */
    void reset();

    /** Sends a complete body: Content-Length, then headers and body in one write. */
    default void send(byte[] body) throws IOException {
        setContentLength(body.length);
        write(ByteBuffer.wrap(body), true);
    }
}
