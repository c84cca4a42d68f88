package dev.cairn.loadtest.bench;

import dev.cairn.engine.fs.WriteLifetime;
import java.util.Map;

/**
 * What the engine benchmark measured on one store. Rates are per second, latencies in
 * milliseconds; a figure the store or the platform cannot give is {@link Double#NaN}.
 *
 * @param putsPerSecond          load phase: puts of new keys per second
 * @param putP50Millis           load phase put latency, median
 * @param putP99Millis           load phase put latency, 99th percentile
 * @param overwritesPerSecond    overwrite phase: puts replacing every key once, per second
 * @param getsPerSecond          measured get phase: gets per second
 * @param getP50Millis           get latency, median
 * @param getP99Millis           get latency, 99th percentile
 * @param gets                   gets in the measured phase
 * @param userBytesWritten       key and value bytes put over load and overwrite
 * @param liveUserBytes          key and value bytes of the latest version of every key
 * @param fileSystemBytesWritten bytes appended through the FileSystem over load, overwrite and settling (NaN without one)
 * @param deviceBytesWritten     {@code /proc/self/io} write_bytes minus cancelled_write_bytes over the same span
 * @param diskBytes              bytes of all files in the store's directory after the overwrite
 * @param diskBytesAfterGc       the same after the store's compaction and garbage collection pass
 * @param fileSystemReadsPerGet  FileSystem read calls per get in the measured phase (NaN without one)
 * @param readCallsPerGet        read system calls of the process per get in the measured phase
 * @param deviceReadBytesPerGet  {@code /proc/self/io} read_bytes per get: what missed the page cache
 * @param indexAndFilterBytes    memory of SSTable indexes and filters after the get phase
 * @param objects                keys stored
 * @param settled                whether background writes went quiet within the settle timeout
 * @param fileSystemBytesByLifetime {@code fileSystemBytesWritten} split by the files' write lifetime
 *                               hint (empty without a FileSystem)
 *
 * <p>Thread-safety: immutable.
 */
public record StoreFigures(
        double putsPerSecond,
        double putP50Millis,
        double putP99Millis,
        double overwritesPerSecond,
        double getsPerSecond,
        double getP50Millis,
        double getP99Millis,
        long gets,
        long userBytesWritten,
        long liveUserBytes,
        double fileSystemBytesWritten,
        double deviceBytesWritten,
        long diskBytes,
        long diskBytesAfterGc,
        double fileSystemReadsPerGet,
        double readCallsPerGet,
        double deviceReadBytesPerGet,
        long indexAndFilterBytes,
        long objects,
        boolean settled,
        Map<WriteLifetime, Long> fileSystemBytesByLifetime) {

    public StoreFigures {
        fileSystemBytesByLifetime = Map.copyOf(fileSystemBytesByLifetime);
    }

    /** Bytes written through the FileSystem to files of this lifetime, or NaN without a FileSystem. */
    public double fileSystemBytesWritten(WriteLifetime lifetime) {
        Long bytes = fileSystemBytesByLifetime.get(lifetime);
        return bytes == null ? Double.NaN : bytes;
    }

    /** Device bytes written ÷ user bytes written, by the FileSystem's own count. */
    public double writeAmpFileSystem() {
        return fileSystemBytesWritten / userBytesWritten;
    }

    /** Device bytes written ÷ user bytes written, by the kernel's count. */
    public double writeAmpProc() {
        return deviceBytesWritten / userBytesWritten;
    }

    /** The FileSystem's figure where the store has one, else the kernel's. */
    public double writeAmp() {
        return Double.isNaN(fileSystemBytesWritten) ? writeAmpProc() : writeAmpFileSystem();
    }

    /** The FileSystem's read calls per get where the store has a FileSystem, else the kernel's. */
    public double readsPerGet() {
        return Double.isNaN(fileSystemReadsPerGet) ? readCallsPerGet : fileSystemReadsPerGet;
    }

    public double spaceAmp() {
        return (double) diskBytes / liveUserBytes;
    }

    public double spaceAmpAfterGc() {
        return (double) diskBytesAfterGc / liveUserBytes;
    }

    public double indexBytesPerKey() {
        return (double) indexAndFilterBytes / objects;
    }
}
