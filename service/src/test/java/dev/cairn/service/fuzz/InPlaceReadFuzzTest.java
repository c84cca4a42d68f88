package dev.cairn.service.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.s3.S3Context;
import dev.cairn.service.s3.S3FrontDoor;
import dev.cairn.service.s3.S3Metrics;
import dev.cairn.service.s3.WouldBlock;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.CachingObjectStore;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * GETs and HEADs served on a thread that may not block, against the same request served on one
 * that may: the answer in place is either refused with {@link WouldBlock} before anything is
 * committed, or the very answer the blocking path gives (status, headers but the request id,
 * body). Objects are cached in front of an embedded store in memory; some are public-read.
 */
class InPlaceReadFuzzTest {
    private static final String[] SEEDS = {
        "PUT /fuzz/a\ncontent-type: text/plain\nx-amz-meta-m: 1\n\nhello, world",
        "PUT /fuzz/open\nx-amz-acl: public-read\n\nfor anyone",
        "PUT /public/b\ncache-control: max-age=60\n\n0123456789",
        "PUT /fuzz/empty\n\n",
    };
    private static Engine engine;
    private static S3FrontDoor frontDoor;
    private static Path spool;
    private static int answeredInPlace;
    private static int handedOff;

    @FuzzTest(maxDuration = "10s")
    void inPlace(byte[] data) throws IOException {
        FuzzExchange http = FuzzExchange.parse(data);
        if (http == null || http.contentLength() != 0
                || !(http.method().equals("GET") || http.method().equals("HEAD"))) {
            return;
        }
        S3FrontDoor door = frontDoor();
        FuzzExchange inPlace = http.inPlace();
        boolean answered;
        try {
            door.serve(inPlace);
            answered = true;
            answeredInPlace++;
        } catch (WouldBlock e) {
            assertFalse(inPlace.isCommitted(), "committed before it would block");
            answered = false;
            handedOff++;
        }
        door.serve(http);
        assertNotEquals(500, http.status());
        if (answered) {
            String what = http.method() + " " + http.rawPath() + "?" + http.rawQuery();
            assertEquals(http.status(), inPlace.status(), what);
            assertEquals(withoutIds(http.responseHeaders()), withoutIds(inPlace.responseHeaders()), what);
            assertArrayEquals(http.responseBody(), inPlace.responseBody(), what);
        }
    }

    private static Map<String, String> withoutIds(Map<String, String> headers) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.remove("x-amz-request-id");
        h.remove("x-amz-id-2");
        return h;
    }

    private static synchronized S3FrontDoor frontDoor() throws IOException {
        if (frontDoor != null) {
            return frontDoor;
        }
        engine = Engine.open(EngineOptions.builder(Path.of("/db")).fileSystem(new MemFileSystem())
                .memtableBytes(1 << 20).rowCacheBytes(1 << 20).blockCacheBytes(1 << 20).build());
        EmbeddedObjectStore embedded = new EmbeddedObjectStore(engine);
        embedded.createBucket("fuzz", BucketAcl.PRIVATE);
        embedded.createBucket("public", BucketAcl.PUBLIC_READ);
        spool = Files.createTempDirectory("cairn-fuzz-spool");
        S3Context ctx = new S3Context(new CachingObjectStore(embedded, 1 << 20, 64 << 10),
                new S3FrontDoorFuzzTest.OneKey(), new CairnProperties(), spool, "fuzz-owner", "fuzz");
        frontDoor = new S3FrontDoor(ctx, new S3Metrics(new SimpleMeterRegistry()));
        for (String seed : SEEDS) {
            FuzzExchange put = FuzzExchange.parse(seed.getBytes(StandardCharsets.ISO_8859_1));
            frontDoor.serve(put);
            assertEquals(200, put.status(), seed);
            frontDoor.serve(FuzzExchange.parse(("GET " + seed.substring(4, seed.indexOf('\n')) + "\n\n")
                    .getBytes(StandardCharsets.ISO_8859_1)));
        }
        return frontDoor;
    }

    @AfterAll
    static void closeStore() throws IOException {
        if (answeredInPlace + handedOff > 0) {
            assertTrue(answeredInPlace > 0 && handedOff > 0,
                    "in place " + answeredInPlace + ", handed off " + handedOff + ": both ways must be seen");
        }
        if (engine != null) {
            engine.close();
            engine = null;
            frontDoor = null;
        }
        if (spool != null) {
            Files.deleteIfExists(spool);
        }
    }
}
