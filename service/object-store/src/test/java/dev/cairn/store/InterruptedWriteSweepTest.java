package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Writes interrupted by a crash (a commit-log sync fails, then the store is reopened on what was
 * synced) or refused by a running engine leave nothing behind once swept, and sweeps racing live
 * writes of the same content never take what those writes are building. The real engine on an
 * in-memory file system.
 */
class InterruptedWriteSweepTest {
    private static final int CHUNK = EmbeddedObjectStore.CHUNK_BYTES;
    private static final String[] CONTENT_TABLES = {"blobs", "chunks", "refs", "intents"};

    private EngineProcess engine;
    private EmbeddedObjectStore store;

    @BeforeEach
    void open() throws IOException {
        engine = new EngineProcess();
        store = new EmbeddedObjectStore(engine.engine());
        store.createBucket("b", BucketAcl.PRIVATE);
    }

    @AfterEach
    void close() throws IOException {
        store.close();
        engine.close();
    }

    private static BytesContent content(int size, int seed) {
        byte[] b = new byte[size];
        new java.util.Random(seed).nextBytes(b);
        return BytesContent.of(b);
    }

    private ObjectInfo put(String key, BytesContent c) throws IOException {
        return store.putObject(PutRequest.of("b", key, c, c.md5()));
    }

    /**
     * A writer of a running store dies when the engine refuses its write and then its undo: the
     * engine stalls writes, which it survives, rather than failing an I/O, after which it accepts
     * no write until reopened (and the reopened store sweeps at once).
     */
    private void runningOnAStallingEngine() throws IOException {
        store.close();
        engine.close();
        engine = EngineProcess.stalling();
        store = new EmbeddedObjectStore(engine.engine());
        store.createBucket("b", BucketAcl.PRIVATE);
    }

    /** A new process on what the dead one synced; the test looks at it before reopening the store. */
    private void restartEngine() throws IOException {
        store.close();
        engine.restart();
    }

    private void assertNoContentLeft() throws IOException {
        for (String table : CONTENT_TABLES) {
            assertEquals(0, engine.size(table), table);
        }
    }

    @Test
    void chunksWrittenBeforeACrashAreReclaimedOnOpen() throws IOException {
        BytesContent c = content(2 * CHUNK + 10, 1);
        engine.dieAfterWrites(2); // the journal entry and the first chunk
        assertThrows(IOException.class, () -> put("k", c));
        restartEngine();
        assertEquals(1, engine.size("chunks"));
        assertEquals(1, engine.size("intents"));

        store = new EmbeddedObjectStore(engine.engine());
        assertNoContentLeft();
        assertNull(store.headObject("b", "k"));
    }

    @Test
    void aReferenceCountedForARowNeverWrittenIsDroppedOnOpen() throws IOException {
        BytesContent c = content(2 * CHUNK, 2);
        engine.dieAfterWrites(4); // journal, two chunks, size row with the reference; not the object row
        assertThrows(IOException.class, () -> put("k", c));
        restartEngine();
        assertEquals(1, engine.size("blobs"));
        assertEquals(1, engine.size("refs"));
        assertEquals(0, engine.size("objects"));

        store = new EmbeddedObjectStore(engine.engine());
        assertNoContentLeft();
        assertNull(store.headObject("b", "k"));
    }

    @Test
    void partReferencesOfAnAbortCutShortAreDroppedOnOpen() throws IOException {
        UploadInfo u = store.createUpload("b", "mp", ObjectAttributes.EMPTY);
        store.putPart("b", "mp", u.uploadId(), 1, content(1000, 3));
        store.putPart("b", "mp", u.uploadId(), 2, content(CHUNK + 1, 4));
        engine.dieAfterWrites(1); // rows gone, references not yet released
        assertThrows(IOException.class, () -> store.abortUpload("b", "mp", u.uploadId()));
        restartEngine();
        assertEquals(2, engine.size("refs"));
        assertEquals(0, engine.size("parts"));

        store = new EmbeddedObjectStore(engine.engine());
        assertNoContentLeft();
        assertEquals(0, engine.size("parts"));
    }

    @Test
    void sharedContentKeepsTheReferencesOfCommittedRows() throws IOException {
        BytesContent c = content(CHUNK + 100, 5);
        put("kept", c);
        engine.dieAfterWrites(1); // the reference of the second object, not its row
        assertThrows(IOException.class, () -> put("lost", c));
        restartEngine();
        assertEquals(1, engine.size("intents"));
        store = new EmbeddedObjectStore(engine.engine());
        assertNull(store.headObject("b", "lost"));
        assertEquals(1, engine.size("refs"));
        try (ObjectRead r = store.getObject("b", "kept"); InputStream in = r.open(0, r.size())) {
            assertArrayEquals(c.bytes(), in.readAllBytes());
        }
        store.deleteObject("b", "kept");
        assertNoContentLeft();
    }

    @Test
    void contentRewrittenAfterACrashSurvivesTheSweep() throws IOException {
        BytesContent c = content(3 * CHUNK, 6);
        runningOnAStallingEngine();
        engine.refuseWritesAfterChunks(1);
        assertThrows(IOException.class, () -> put("k", c));
        engine.resumeWrites(); // the store keeps running: its dead writer's journal entry waits for a sweep
        assertEquals(1, engine.size("intents"));
        assertEquals(1, engine.size("chunks"));
        put("k", c);
        EmbeddedObjectStore.SweepReport report = store.sweep();
        assertEquals(0, report.abandonedContents());
        assertEquals(0, engine.size("intents"));
        try (ObjectRead r = store.getObject("b", "k"); InputStream in = r.open(0, r.size())) {
            assertArrayEquals(c.bytes(), in.readAllBytes());
        }
    }

    @Test
    void aSweepAfterAFailedWriteReclaimsWhatItsUndoCouldNotDelete() throws IOException {
        BytesContent c = content(2 * CHUNK + 1, 7);
        runningOnAStallingEngine();
        engine.refuseWritesAfterChunks(2);
        assertThrows(IOException.class, () -> put("k", c));
        engine.resumeWrites();
        assertEquals(2, engine.size("chunks"));
        EmbeddedObjectStore.SweepReport report = store.sweep();
        assertEquals(1, report.abandonedContents());
        assertEquals(c.size(), report.abandonedBytes());
        assertNoContentLeft();
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void theBackgroundSweepReclaimsWithoutBeingCalled() throws Exception {
        BytesContent c = content(2 * CHUNK + 1, 8);
        runningOnAStallingEngine();
        engine.refuseWritesAfterChunks(1);
        assertThrows(IOException.class, () -> put("k", c));
        engine.resumeWrites();
        assertEquals(1, engine.size("intents"));
        store.sweepEvery(java.time.Duration.ofMillis(20));
        try {
            while (engine.size("intents") > 0) {
                Thread.sleep(10); // until the sweep ran, within the test's timeout
            }
        } finally {
            store.close();
        }
        assertNoContentLeft();
    }

    @Test
    void sweepsRacingWritesOfTheSameContentTakeNothingLive() throws Exception {
        List<BytesContent> contents = List.of(content(2 * CHUNK + 3, 10), content(2 * CHUNK, 11), content(500, 12));
        // Dead writers' leftovers for the same content, so that the sweeps have work while writes run:
        // the first chunk of one, every chunk but no size row of the other.
        runningOnAStallingEngine();
        engine.refuseWritesAfterChunks(1);
        assertThrows(IOException.class, () -> put("dead-a", contents.get(0)));
        engine.resumeWrites();
        engine.refuseWritesAfterChunks(2);
        assertThrows(IOException.class, () -> put("dead-b", contents.get(1)));
        engine.resumeWrites();
        assertEquals(2, engine.size("intents"));
        assertEquals(3, engine.size("chunks"));

        int writers = 4;
        int rounds = 30;
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
        try {
            Future<Integer> sweeps = pool.submit(() -> {
                int n = 0;
                while (writing.get()) {
                    store.sweep();
                    n++;
                }
                return n;
            });
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < rounds; i++) {
                        BytesContent c = contents.get((writer + i) % contents.size());
                        String key = "k" + (i % 3);
                        put(key, c);
                        if (i % 4 == 3) {
                            store.deleteObject("b", key);
                        }
                        UploadInfo u = store.createUpload("b", "mp" + writer, ObjectAttributes.EMPTY);
                        store.putPart("b", "mp" + writer, u.uploadId(), 1, c);
                        store.abortUpload("b", "mp" + writer, u.uploadId());
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            writing.set(false);
            sweeps.get();
        } finally {
            pool.shutdownNow();
        }
        store.sweep();
        assertEquals(0, engine.size("intents"));
        for (String key : List.of("k0", "k1", "k2")) {
            ObjectInfo info = store.headObject("b", key);
            if (info == null) {
                continue;
            }
            BytesContent expected = contents.stream().filter(c -> c.sha256().equals(info.sha256())).findFirst().orElseThrow();
            try (ObjectRead r = store.getObject("b", key); InputStream in = r.open(0, r.size())) {
                assertArrayEquals(expected.bytes(), in.readAllBytes(), key);
            }
            store.deleteObject("b", key);
        }
        assertNoContentLeft();
    }
}
