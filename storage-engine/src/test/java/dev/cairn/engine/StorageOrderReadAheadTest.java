package dev.cairn.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.engine.fs.FaultInjectingFileSystem;
import dev.cairn.engine.fs.FaultRule;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ForwardingFileSystem;
import dev.cairn.engine.fs.FsOp;
import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.ThreadPriority;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan in storage order around the page cache reads spans ahead on a thread of its own: spans
 * are visited in the order their buffers were asked for, no more than three buffers are out, and
 * a buffer handed back after its span is visited is never written again; a read that fails ahead
 * ends the scan with its error; an interrupted scan ends and leaves no reading thread; a scan on
 * an idle thread reads at idle priority. Read-ahead is switched on for these tests (it is off by
 * default, {@code cairn.engine.storageOrderReadAhead}).
 */
class StorageOrderReadAheadTest {
    private static final int KEYS = 400;
    private static final int OUTSTANDING = 3;

    @TempDir
    Path dir;

    private String propertyBefore;

    @org.junit.jupiter.api.BeforeEach
    void readAhead() {
        propertyBefore = System.setProperty("cairn.engine.storageOrderReadAhead", "true");
    }

    @org.junit.jupiter.api.AfterEach
    void asBefore() {
        if (propertyBefore == null) {
            System.clearProperty("cairn.engine.storageOrderReadAhead");
        } else {
            System.setProperty("cairn.engine.storageOrderReadAhead", propertyBefore);
        }
    }

    private static byte[] key(int i) {
        return String.format("key-%05d", i).getBytes(UTF_8);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[300 + new Random(i).nextInt(3_000)];
        new Random(i * 31L).nextBytes(v);
        return v;
    }

    /** Small value files, so that the values make many spans over several files. */
    private static EngineOptions.Builder small(Path d, FileSystem fs) {
        return EngineOptions.builder(d).fileSystem(fs).memtableBytes(32 << 10).valueThreshold(256)
                .targetFileBytes(4 << 10).level1Bytes(16 << 10).valueFileBytes(64 << 10).valueGcGarbageRatio(1.0);
    }

    private Map<String, byte[]> populate(Path d) throws IOException {
        Map<String, byte[]> expected = new TreeMap<>();
        try (Engine engine = Engine.open(small(d, new LocalFileSystem()).build())) {
            Table t = engine.table("t");
            for (int i = 0; i < KEYS; i++) {
                t.put(key(i), value(i));
                expected.put(new String(key(i), UTF_8), value(i));
            }
            engine.flush();
        }
        return expected;
    }

    /** Hands out a pool of {@link #OUTSTANDING} buffers, takes each back once its span is visited, and keeps copies of the values. */
    private static final class PooledVisitor implements StorageOrder.Visitor {
        final ArrayDeque<byte[]> pool = new ArrayDeque<>();
        final ArrayDeque<byte[]> out = new ArrayDeque<>();
        final Map<String, byte[]> seen = new TreeMap<>();
        int spans;
        int mostOut;

        PooledVisitor(int spanBytes) {
            for (int i = 0; i < OUTSTANDING; i++) {
                pool.add(new byte[spanBytes]);
            }
        }

        @Override
        public byte[] spanBuffer(int length) {
            byte[] b = pool.poll();
            assertNotNull(b, "no more than " + OUTSTANDING + " span buffers out at once");
            out.addLast(b);
            mostOut = Math.max(mostOut, out.size());
            spans++;
            return b;
        }

        @Override
        public void visit(byte[] key, byte[] buffer, int offset, int length) {
            assertTrue(buffer == out.peekFirst(), "values lie in the oldest buffer asked for");
            assertNull(seen.put(new String(key, UTF_8), Arrays.copyOfRange(buffer, offset, offset + length)));
        }

        @Override
        public void spanVisited() {
            byte[] done = out.pollFirst();
            assertNotNull(done);
            Arrays.fill(done, (byte) 0x5a); // a write ahead into a buffer still being visited would show in the copies
            pool.add(done);
        }
    }

    @Test
    void spansAreReadAheadIntoBuffersAskedForInOrderAndHandedBackWhole() throws Exception {
        Path d = dir.resolve("e");
        Map<String, byte[]> expected = populate(d);
        try (Engine readOnly = Engine.openReadOnly(EngineOptions.builder(d).build())) {
            PooledVisitor visitor = new PooledVisitor(4 << 20);
            readOnly.table("t").scanInStorageOrder(KeyRange.all(), ReadOptions.SCAN_AROUND_PAGE_CACHE, (k, length) -> true, visitor);
            assertTrue(visitor.spans > 3, "several spans: " + visitor.spans);
            assertEquals(OUTSTANDING, visitor.mostOut, "reads ahead");
            assertTrue(visitor.out.isEmpty(), "every span visited");
            assertEquals(expected.keySet(), visitor.seen.keySet());
            for (Map.Entry<String, byte[]> e : expected.entrySet()) {
                assertArrayEquals(e.getValue(), visitor.seen.get(e.getKey()), e.getKey());
            }
        }
        assertNoReadingThreadLeft();
    }

    @Test
    void aReadThatFailsAheadEndsTheScanWithItsError() throws Exception {
        Path d = dir.resolve("e");
        populate(d);
        FaultInjectingFileSystem faults = new FaultInjectingFileSystem(new LocalFileSystem());
        try (Engine readOnly = Engine.openReadOnly(small(d, faults).build())) {
            faults.inject(FaultRule.on(FsOp.READ).matching(p -> p.toString().endsWith(".vlog")).afterSucceeding(6).always());
            List<String> visited = new ArrayList<>();
            IOException e = assertThrows(IOException.class, () -> readOnly.table("t").scanInStorageOrder(KeyRange.all(),
                    ReadOptions.SCAN_AROUND_PAGE_CACHE, (k, length) -> true, (k, buffer, offset, length) ->
                            visited.add(new String(k, UTF_8))));
            assertTrue(e.getMessage().contains("injected fault"), e.getMessage());
            assertTrue(visited.size() < KEYS, "the scan stopped: " + visited.size());
            faults.clearRules();
            assertEquals(KEYS, countAll(readOnly), "the engine reads on after the failed scan");
        }
        assertNoReadingThreadLeft();
    }

    @Test
    void anInterruptedScanEndsAndLeavesNoReadingThread() throws Exception {
        Path d = dir.resolve("e");
        populate(d);
        try (Engine readOnly = Engine.openReadOnly(EngineOptions.builder(d).build())) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicInteger visits = new AtomicInteger();
            Thread scan = new Thread(() -> {
                try {
                    readOnly.table("t").scanInStorageOrder(KeyRange.all(), ReadOptions.SCAN_AROUND_PAGE_CACHE,
                            (k, length) -> true, (k, buffer, offset, length) -> {
                                if (visits.incrementAndGet() == 20) {
                                    Thread.currentThread().interrupt();
                                }
                            });
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            scan.start();
            scan.join(60_000);
            assertFalse(scan.isAlive(), "the scan ended");
            assertTrue(thrown.get() instanceof InterruptedIOException, "interrupted: " + thrown.get());
            assertTrue(visits.get() < KEYS, "stopped early: " + visits.get());
            assertEquals(KEYS, countAll(readOnly), "the engine reads on");
        }
        assertNoReadingThreadLeft();
    }

    @Test
    void aScanOnAnIdleThreadReadsAheadAtIdlePriority() throws Exception {
        Path d = dir.resolve("e");
        populate(d);
        Set<String> readClasses = ConcurrentHashMap.newKeySet();
        FileSystem recording = new ForwardingFileSystem(new LocalFileSystem()) {
            @Override
            public ReadableFile openReadAroundPageCache(Path path) throws IOException {
                ReadableFile f = delegate.openReadAroundPageCache(path);
                return new ReadableFile() {
                    @Override
                    public int read(long position, ByteBuffer dst) throws IOException {
                        readClasses.add(Thread.currentThread().getName() + " io=" + ThreadPriority.currentIoClass()
                                + " cpu=" + ThreadPriority.currentCpuPolicy());
                        return f.read(position, dst);
                    }

                    @Override
                    public long size() throws IOException {
                        return f.size();
                    }

                    @Override
                    public void close() throws IOException {
                        f.close();
                    }
                };
            }
        };
        try (Engine readOnly = Engine.openReadOnly(small(d, recording).build())) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicInteger visits = new AtomicInteger();
            boolean[] idled = {false};
            Thread scan = new Thread(() -> {
                try {
                    idled[0] = ThreadPriority.idleCurrentThread();
                    readOnly.table("t").scanInStorageOrder(KeyRange.all(), ReadOptions.SCAN_AROUND_PAGE_CACHE,
                            (k, length) -> true, (k, buffer, offset, length) -> visits.incrementAndGet());
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            scan.start();
            scan.join();
            assertNull(thrown.get());
            assumeTrue(idled[0], "this machine lets a thread idle itself");
            assertEquals(KEYS, visits.get());
            assertEquals(Set.of("storage-order-read io=" + ThreadPriority.IOPRIO_CLASS_IDLE + " cpu=" + ThreadPriority.SCHED_IDLE),
                    readClasses, "every read ahead at idle priority");
        }
    }

    private static int countAll(Engine engine) throws IOException {
        AtomicInteger n = new AtomicInteger();
        engine.table("t").scanInStorageOrder(KeyRange.all(), ReadOptions.SCAN_AROUND_PAGE_CACHE, (k, length) -> true,
                (k, buffer, offset, length) -> n.incrementAndGet());
        return n.get();
    }

    /** The reading thread ends once its scan is closed; waited for as a condition, never a fixed pause. */
    private static void assertNoReadingThreadLeft() throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (readingThreads() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(0, readingThreads(), "no storage-order-read thread left");
    }

    private static long readingThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("storage-order-read") && t.isAlive()).count();
    }
}
