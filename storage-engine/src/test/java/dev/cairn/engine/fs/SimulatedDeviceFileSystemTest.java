package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The device model, with a sleeper that records instead of waiting. */
class SimulatedDeviceFileSystemTest {

    private static final long MS = 1_000_000;
    private final Path dir = Path.of("/capacity");
    private final List<Long> sleeps = Collections.synchronizedList(new ArrayList<>());
    private MemFileSystem mem;

    @BeforeEach
    void setUp() throws IOException {
        mem = new MemFileSystem();
        mem.createDirectories(dir);
        for (String name : new String[] {"a", "b"}) {
            try (WritableFile file = mem.create(dir.resolve(name), WriteLifetime.NOT_SET)) {
                file.append(ByteBuffer.wrap(content(1_000_000)));
            }
        }
    }

    private static byte[] content(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i ^ (i >>> 8));
        }
        return bytes;
    }

    private SimulatedDeviceFileSystem device(DeviceProfile profile) {
        return new SimulatedDeviceFileSystem(mem, profile, sleeps::add);
    }

    @Test
    void diskReadsPaySeekPlusTransferUnlessSequential() throws IOException {
        SimulatedDeviceFileSystem fs = device(DeviceProfile.HDD_7200);
        try (ReadableFile file = fs.openRead(dir.resolve("a"))) {
            assertArrayEquals(Arrays.copyOfRange(content(1_000_000), 1000, 151_000),
                    file.readFully(1000, 150_000));
            file.readFully(151_000, 150_000);
            file.readFully(500_000, 150_000);
        }
        assertEquals(List.of(9 * MS, 1 * MS, 9 * MS), sleeps);
        assertEquals(2, fs.accesses());
        assertEquals(1, fs.sequentialReads());
        assertEquals(19 * MS, fs.simulatedNanos());
    }

    @Test
    void aDiskHeadThatReadAnotherFileMustSeekBack() throws IOException {
        SimulatedDeviceFileSystem fs = device(DeviceProfile.HDD_7200);
        try (ReadableFile a = fs.openRead(dir.resolve("a")); ReadableFile b = fs.openRead(dir.resolve("b"))) {
            a.readFully(0, 1500);
            b.readFully(0, 1500);
            a.readFully(1500, 1500);
            a.readFully(3000, 1500);
        }
        assertEquals(List.of(8 * MS + 10_000, 8 * MS + 10_000, 8 * MS + 10_000, 10_000L), sleeps);
    }

    @Test
    void ssdCountsSequentialPerFile() throws IOException {
        SimulatedDeviceFileSystem fs = device(DeviceProfile.SSD);
        try (ReadableFile a = fs.openRead(dir.resolve("a")); ReadableFile b = fs.openRead(dir.resolve("b"))) {
            a.readFully(0, 4000);
            b.readFully(0, 4000);
            a.readFully(4000, 4000);
        }
        assertEquals(List.of(84_000L, 84_000L, 4_000L), sleeps);
    }

    @Test
    void handlesOfOneFileShareItsPosition() throws IOException {
        SimulatedDeviceFileSystem fs = device(DeviceProfile.HDD_7200);
        try (ReadableFile first = fs.openRead(dir.resolve("a")); ReadableFile second = fs.openRead(dir.resolve("a"))) {
            first.readFully(0, 1500);
            second.readFully(1500, 1500);
        }
        assertEquals(List.of(8 * MS + 10_000, 10_000L), sleeps);
    }

    @Test
    void writesAreFreeUnlessThrottledAndThenMoveTheHead() throws IOException {
        SimulatedDeviceFileSystem free = device(DeviceProfile.HDD_7200);
        try (WritableFile file = free.create(dir.resolve("w"), WriteLifetime.LONG)) {
            file.append(ByteBuffer.wrap(new byte[1_000_000]));
        }
        assertEquals(List.of(), sleeps);

        SimulatedDeviceFileSystem throttled = device(DeviceProfile.HDD_7200.withWriteBandwidth(100_000_000));
        try (ReadableFile a = throttled.openRead(dir.resolve("a"));
                WritableFile file = throttled.create(dir.resolve("w"), WriteLifetime.LONG)) {
            a.readFully(0, 1500);
            file.append(ByteBuffer.wrap(new byte[1_000_000]));
            a.readFully(1500, 1500);
        }
        assertEquals(List.of(8 * MS + 10_000, 10 * MS, 8 * MS + 10_000), sleeps);
        assertEquals(1_000_000, mem.size(dir.resolve("w")));
    }

    @Test
    void queueDepthOneSerializesRequests() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger inDevice = new AtomicInteger();
        SimulatedDeviceFileSystem fs = new SimulatedDeviceFileSystem(mem, DeviceProfile.HDD_7200, nanos -> {
            inDevice.incrementAndGet();
            release.await(60, TimeUnit.SECONDS);
        });
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (ReadableFile a = fs.openRead(dir.resolve("a")); ReadableFile b = fs.openRead(dir.resolve("b"))) {
            Future<?> first = pool.submit(() -> a.readFully(0, 100));
            awaitTrue(() -> inDevice.get() == 1);
            Future<?> second = pool.submit(() -> b.readFully(0, 100));
            awaitTrue(() -> fs.waitingRequests() == 1);
            assertEquals(1, inDevice.get(), "the second request waits while the first holds the only slot");
            release.countDown();
            first.get(60, TimeUnit.SECONDS);
            second.get(60, TimeUnit.SECONDS);
            assertEquals(2, inDevice.get());
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void deeperQueuesServeRequestsAtOnce() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger inDevice = new AtomicInteger();
        SimulatedDeviceFileSystem fs = new SimulatedDeviceFileSystem(mem, DeviceProfile.SSD, nanos -> {
            inDevice.incrementAndGet();
            release.await(60, TimeUnit.SECONDS);
        });
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (ReadableFile a = fs.openRead(dir.resolve("a")); ReadableFile b = fs.openRead(dir.resolve("b"))) {
            Future<?> first = pool.submit(() -> a.readFully(0, 100));
            Future<?> second = pool.submit(() -> b.readFully(0, 100));
            awaitTrue(() -> inDevice.get() == 2);
            release.countDown();
            first.get(60, TimeUnit.SECONDS);
            second.get(60, TimeUnit.SECONDS);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void interruptionBecomesInterruptedIoException() throws IOException {
        SimulatedDeviceFileSystem fs = new SimulatedDeviceFileSystem(mem, DeviceProfile.SSD, nanos -> {
            throw new InterruptedException();
        });
        try (ReadableFile a = fs.openRead(dir.resolve("a"))) {
            assertThrows(InterruptedIOException.class, () -> a.readFully(0, 10));
            assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
        }
    }

    @Test
    void systemSleeperReturnsAndHonoursInterrupts() throws Exception {
        Sleeper.SYSTEM.sleep(1000);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> Sleeper.SYSTEM.sleep(TimeUnit.SECONDS.toNanos(30)));
    }

    @Test
    void profilesValidateTheirNumbers() {
        assertThrows(IllegalArgumentException.class, () -> new DeviceProfile("x", -1, 1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new DeviceProfile("x", 0, 0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new DeviceProfile("x", 0, 1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new DeviceProfile("x", 0, 1, 1, -1));
        assertThrows(IllegalArgumentException.class, () -> new DeviceProfile("", 0, 1, 1, 0));
        DeviceProfile custom = new DeviceProfile("nas", 2 * MS, 50_000_000, 4, 25_000_000);
        assertEquals(2 * MS + 20 * MS, custom.readNanos(1_000_000, false));
        assertEquals(40 * MS, custom.writeNanos(1_000_000));
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached within 60 s");
            }
            Thread.sleep(1);
        }
    }
}
