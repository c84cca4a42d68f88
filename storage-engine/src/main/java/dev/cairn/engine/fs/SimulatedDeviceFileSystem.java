package dev.cairn.engine.fs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;

/**
 * Puts a slow device under another file system, so that benchmarks on an all-SSD machine can
 * place a tier on a simulated disk (the hybrid SSD/HDD results need one). Data comes from the
 * delegate; each read then takes the time the {@link DeviceProfile} gives it, waited out
 * through the {@link Sleeper} while holding one of the device's {@code queueDepth} slots, which
 * are granted in arrival order: with queue depth 1 (a disk) requests serialize.
 *
 * <p>A read is sequential, and pays no access time, when it starts where the previous read
 * ended. With queue depth 1 the previous read is the device's (one head: a read of another
 * file in between means a seek); with deeper queues, the previous read of the same file.
 * Appends go through at once unless the profile has a write bandwidth; then they take device
 * slots and time too, and move a single head away from where reads left it.
 * Syncs and metadata operations are not slowed.
 *
 * <p>Thread-safe if the delegate is.
 */
public final class SimulatedDeviceFileSystem extends ForwardingFileSystem {
    private final DeviceProfile profile;
    private final Sleeper sleeper;
    private final Semaphore slots;
    private final Map<Path, FileHead> heads = new ConcurrentHashMap<>();
    private final LongAdder simulatedNanos = new LongAdder();
    private final LongAdder accesses = new LongAdder();
    private final LongAdder sequentialReads = new LongAdder();
    /** The file the single head last read, for queue depth 1. Guarded by {@code this}. */
    private FileHead lastRead;

    public SimulatedDeviceFileSystem(FileSystem delegate, DeviceProfile profile) {
        this(delegate, profile, Sleeper.SYSTEM);
    }

    public SimulatedDeviceFileSystem(FileSystem delegate, DeviceProfile profile, Sleeper sleeper) {
        super(delegate);
        this.profile = profile;
        this.sleeper = sleeper;
        this.slots = new Semaphore(profile.queueDepth(), true);
    }

    public DeviceProfile profile() {
        return profile;
    }

    /** Device time simulated so far, summed over all requests. */
    public long simulatedNanos() {
        return simulatedNanos.sum();
    }

    /** Reads that paid the access time (seeks, on a disk). */
    public long accesses() {
        return accesses.sum();
    }

    /** Reads that continued the previous one and paid transfer time only. */
    public long sequentialReads() {
        return sequentialReads.sum();
    }

    /** Requests waiting for a device slot now. */
    public int waitingRequests() {
        return slots.getQueueLength();
    }

    @Override
    public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
        WritableFile file = delegate.create(path, lifetime);
        return profile.writeBytesPerSecond() == 0 ? file : new ThrottledWritableFile(file);
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        ReadableFile file = delegate.openRead(path);
        return new SlowReadableFile(file, heads.computeIfAbsent(key(path), p -> new FileHead()));
    }

    @Override
    public void delete(Path path) throws IOException {
        delegate.delete(path);
        heads.remove(key(path));
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        delegate.rename(source, target);
        heads.remove(key(source));
        heads.remove(key(target));
    }

    private static Path key(Path path) {
        return path.toAbsolutePath().normalize();
    }

    /** Where the last read of one file ended. Guarded by the file system's monitor. */
    private static final class FileHead {
        long end = -1;
    }

    private synchronized boolean moveHead(FileHead file, long position, long end) {
        boolean sequential = file.end == position && (profile.queueDepth() > 1 || lastRead == file);
        file.end = end;
        lastRead = file;
        return sequential;
    }

    private synchronized void headMovedByWrite() {
        lastRead = null;
    }

    private void acquireSlot() throws InterruptedIOException {
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the simulated " + profile.name());
        }
    }

    private void spend(long nanos) throws InterruptedIOException {
        simulatedNanos.add(nanos);
        try {
            sleeper.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted during a request to the simulated " + profile.name());
        }
    }

    private final class SlowReadableFile implements ReadableFile {
        private final ReadableFile file;
        private final FileHead head;

        SlowReadableFile(ReadableFile file, FileHead head) {
            this.file = file;
            this.head = head;
        }

        @Override
        public int read(long position, ByteBuffer dst) throws IOException {
            acquireSlot();
            try {
                int n = file.read(position, dst);
                if (n > 0) {
                    boolean sequential = moveHead(head, position, position + n);
                    (sequential ? sequentialReads : accesses).increment();
                    spend(profile.readNanos(n, sequential));
                }
                return n;
            } finally {
                slots.release();
            }
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    private final class ThrottledWritableFile implements WritableFile {
        private final WritableFile file;

        ThrottledWritableFile(WritableFile file) {
            this.file = file;
        }

        @Override
        public void append(ByteBuffer data) throws IOException {
            acquireSlot();
            try {
                int bytes = data.remaining();
                file.append(data);
                headMovedByWrite();
                spend(profile.writeNanos(bytes));
            } finally {
                slots.release();
            }
        }

        @Override
        public boolean reserve(long bytes) {
            return file.reserve(bytes);
        }

        @Override
        public boolean zeroFill(long bytes) throws IOException {
            return file.zeroFill(bytes);
        }

        @Override
        public long size() {
            return file.size();
        }

        @Override
        public void sync() throws IOException {
            file.sync();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
