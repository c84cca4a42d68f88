package dev.cairn.service.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.s3.Authentication;
import dev.cairn.service.s3.Authenticator;
import dev.cairn.service.s3.HttpExchange;
import dev.cairn.service.s3.S3Context;
import dev.cairn.service.s3.S3Exception;
import dev.cairn.service.s3.S3FrontDoor;
import dev.cairn.service.s3.S3Metrics;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * Whole requests through the S3 front door: routing, URL decoding, query parameters, headers and
 * the XML bodies (DeleteObjects, CompleteMultipartUpload, PutBucketAcl) reach the real handlers
 * and an embedded store in memory. Whatever the request, the answer is a response: success or an
 * S3 XML error, never an internal error or an exception. Signatures are fuzzed apart
 * (SigV4ParserFuzzTest); here every request is signed by one key, unless it carries
 * {@code x-fuzz-anonymous}.
 */
class S3FrontDoorFuzzTest {
    private static final int REQUESTS_PER_STORE = 5_000;
    private static Engine engine;
    private static S3FrontDoor frontDoor;
    private static Path spool;
    private static int served;

    @FuzzTest(maxDuration = "10s")
    void serve(byte[] data) throws IOException {
        FuzzExchange http = FuzzExchange.parse(data);
        if (http == null) {
            return;
        }
        S3FrontDoor door = frontDoor();
        door.serve(http);
        int status = http.status();
        String body = new String(http.responseBody(), StandardCharsets.UTF_8);
        assertNotEquals(500, status, () -> "internal error for " + http.method() + " " + http.rawPath() + "?"
                + http.rawQuery() + ": " + body);
        assertTrue(status >= 200 && status < 600, "status " + status);
        if (status >= 400 && !http.method().equals("HEAD")) {
            assertTrue(body.contains("<Error>") && body.contains("<Code>"), "error without an S3 XML body: " + body);
        }
    }

    private static synchronized S3FrontDoor frontDoor() throws IOException {
        if (frontDoor != null && served++ < REQUESTS_PER_STORE) {
            return frontDoor;
        }
        closeStore();
        served = 0;
        engine = Engine.open(EngineOptions.builder(Path.of("/db")).fileSystem(new MemFileSystem())
                .memtableBytes(1 << 20).rowCacheBytes(1 << 20).blockCacheBytes(1 << 20).build());
        EmbeddedObjectStore store = new EmbeddedObjectStore(engine);
        store.createBucket("fuzz", BucketAcl.PRIVATE);
        store.createBucket("public", BucketAcl.PUBLIC_READ);
        if (spool == null) {
            spool = Files.createTempDirectory("cairn-fuzz-spool");
        }
        CairnProperties properties = new CairnProperties();
        S3Context ctx = new S3Context(store, new OneKey(), properties, spool, "fuzz-owner", "fuzz");
        frontDoor = new S3FrontDoor(ctx, new S3Metrics(new SimpleMeterRegistry()));
        return frontDoor;
    }

    @AfterAll
    static void closeStore() throws IOException {
        if (engine != null) {
            engine.close();
            engine = null;
            frontDoor = null;
        }
    }

    /** Every request signed by the key "fuzz", except those that ask to be anonymous. */
    static final class OneKey implements Authenticator {
        @Override
        public Authentication authenticate(HttpExchange request) {
            String key = request.header("x-fuzz-anonymous") == null ? "fuzz" : null;
            long length = request.contentLength();
            return new Authentication() {
                @Override
                public String accessKey() {
                    return key;
                }

                @Override
                public long decodedContentLength() {
                    return length;
                }

                @Override
                public InputStream wrapBody(InputStream raw) {
                    return raw;
                }

                @Override
                public Map<String, String> trailers() {
                    return Map.of();
                }
            };
        }

        @Override
        public S3Exception failureOf(IOException e) {
            return null;
        }
    }
}
