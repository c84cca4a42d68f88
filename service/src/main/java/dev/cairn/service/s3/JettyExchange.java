package dev.cairn.service.s3;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;

/**
 * {@link HttpExchange} over Jetty's core request and response. Writes block the calling thread
 * until Jetty has taken the bytes, so a body streams with one buffer in memory; a body all in
 * memory may instead be written detached ({@link SlicedWrite}), and the handler's callback is
 * then completed when that write ends. Response headers are kept in a short list of their own
 * and handed to Jetty once, before the first write or at the end: replacing a header in Jetty's
 * fields costs a scan and a copy each time. Not thread-safe, apart from the completion.
 */
final class JettyExchange implements HttpExchange {
    private final Request request;
    private final Response response;
    private final Callback completed;
    /** Serving the request, and a detached write when there is one; at 0 the answer is complete. */
    private final AtomicInteger unfinished = new AtomicInteger(1);
    private volatile Throwable failure;
    private Consumer<Throwable> whenComplete;
    private final List<HttpField> responseHeaders = new ArrayList<>(16);
    private long contentLength = -1;
    private boolean headersHandedOver;
    private final boolean mayBlock;

    /**
     * @param completed the handler's callback, completed when the answer is
     * @param mayBlock  false on Jetty's network thread: see {@link HttpExchange#mayBlock()}
     */
    JettyExchange(Request request, Response response, Callback completed, boolean mayBlock) {
        this.request = request;
        this.response = response;
        this.completed = completed;
        this.mayBlock = mayBlock;
    }

    @Override
    public boolean mayBlock() {
        return mayBlock;
    }

    @Override
    public String method() {
        return request.getMethod();
    }

    @Override
    public String rawPath() {
        return request.getHttpURI().getPath();
    }

    @Override
    public String rawQuery() {
        return request.getHttpURI().getQuery();
    }

    @Override
    public String serverName() {
        return Request.getServerName(request);
    }

    @Override
    public String remoteAddr() {
        return Request.getRemoteAddr(request);
    }

    @Override
    public String header(String name) {
        HttpHeader known = KNOWN_HEADERS.get(name);
        return known != null ? request.getHeaders().get(known) : request.getHeaders().get(name);
    }

    /**
     * Jetty's names for the headers it knows, as the handlers spell them: the parser marks each
     * such field with its {@link HttpHeader}, which is compared by identity instead of by name.
     */
    private static final Map<String, HttpHeader> KNOWN_HEADERS = knownHeaders();

    private static Map<String, HttpHeader> knownHeaders() {
        Map<String, HttpHeader> known = new HashMap<>();
        for (HttpHeader h : HttpHeader.values()) {
            known.put(h.asString(), h);
            known.put(h.lowerCaseName(), h);
        }
        return Map.copyOf(known);
    }

    @Override
    public Map<String, List<String>> headers() {
        HttpFields fields = request.getHeaders();
        Map<String, List<String>> headers = new HashMap<>(fields.size() * 2);
        for (HttpField f : fields) {
            String name = lowerCaseName(f);
            // Immutable lists: the signature verifier keeps them without copying.
            List<String> values = headers.putIfAbsent(name, List.of(f.getValue()));
            if (values != null) {
                List<String> more = new ArrayList<>(values);
                more.add(f.getValue());
                headers.put(name, List.copyOf(more));
            }
        }
        return headers;
    }

    /**
     * The field's name in lowercase. Jetty lowercases the names it does not know (all the
     * {@code x-amz-*} ones) into a new string on every call; most clients send them lowercase.
     */
    private static String lowerCaseName(HttpField f) {
        if (f.getHeader() != null) {
            return f.getLowerCaseName();
        }
        String name = f.getName();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return f.getLowerCaseName();
            }
        }
        return name;
    }

    @Override
    public long contentLength() {
        return request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
    }

    @Override
    public InputStream body() {
        if (!mayBlock) {
            throw WouldBlock.INSTANCE;
        }
        return Content.Source.asInputStream(request);
    }

    @Override
    public int status() {
        int status = response.getStatus();
        return status == 0 ? 200 : status;
    }

    @Override
    public void setStatus(int status) {
        response.setStatus(status);
    }

    @Override
    public void setHeader(String name, String value) {
        if (headersHandedOver) {
            response.getHeaders().put(name, value);
            return;
        }
        for (int i = 0; i < responseHeaders.size(); i++) {
            if (sameName(responseHeaders.get(i).getName(), name)) {
                if (value == null) {
                    responseHeaders.remove(i);
                } else {
                    responseHeaders.set(i, field(name, value));
                }
                return;
            }
        }
        if (value != null) {
            responseHeaders.add(field(name, value));
        }
    }

    /** As {@code new HttpField(name, value)}, without Jetty's trie walk for the names it knows. */
    private static HttpField field(String name, String value) {
        HttpHeader known = KNOWN_HEADERS.get(name);
        return new HttpField(known != null ? known : HttpHeader.CACHE.get(name), name, value);
    }

    private static boolean sameName(String a, String b) {
        return a == b || a.equalsIgnoreCase(b);
    }

    @Override
    public String responseHeader(String name) {
        if (headersHandedOver) {
            return response.getHeaders().get(name);
        }
        for (HttpField f : responseHeaders) {
            if (sameName(f.getName(), name)) {
                return f.getValue();
            }
        }
        return null;
    }

    @Override
    public void setContentLength(long length) {
        if (headersHandedOver) {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, length);
        } else {
            contentLength = length;
        }
    }

    @Override
    public void write(ByteBuffer bytes, boolean last) throws IOException {
        if (!mayBlock) {
            throw WouldBlock.INSTANCE;
        }
        handOverHeaders();
        try (Blocker.Callback written = Blocker.callback()) {
            response.write(last, bytes, written);
            written.block();
        }
    }

    @Override
    public boolean writeLastDetached(ByteBuffer bytes, LongConsumer written) {
        handOverHeaders();
        unfinished.incrementAndGet();
        SlicedWrite.start(response, bytes, (failed, taken) -> {
            try {
                written.accept(taken);
            } finally {
                finish(failed);
            }
        });
        return true;
    }

    @Override
    public void whenComplete(Consumer<Throwable> action) {
        whenComplete = action;
    }

    /** The request was served, or serving it threw {@code thrown}; completes the answer unless a write is pending. */
    void served(Throwable thrown) {
        finish(thrown);
    }

    private void finish(Throwable failed) {
        if (failed != null && failure == null) {
            failure = failed;
        }
        if (unfinished.decrementAndGet() != 0) {
            return;
        }
        Throwable x = failure;
        try {
            if (whenComplete != null) {
                whenComplete.accept(x);
            }
        } finally {
            if (x == null) {
                handOverHeaders();
                completed.succeeded();
            } else {
                completed.failed(x);
            }
        }
    }

    /** Gives Jetty the response headers; called before the first write and before completing. */
    private void handOverHeaders() {
        if (headersHandedOver) {
            return;
        }
        headersHandedOver = true;
        HttpFields.Mutable fields = response.getHeaders();
        for (HttpField f : responseHeaders) {
            fields.add(f);
        }
        if (contentLength >= 0) {
            fields.put(HttpHeader.CONTENT_LENGTH, contentLength);
        }
    }

    @Override
    public boolean isCommitted() {
        return response.isCommitted();
    }

    @Override
    public void reset() {
        response.reset();
        responseHeaders.clear();
        contentLength = -1;
        headersHandedOver = false;
    }
}
