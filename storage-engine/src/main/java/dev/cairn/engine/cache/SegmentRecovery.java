package dev.cairn.engine.cache;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Opens the segments an earlier {@link SsdCache} left, as {@link SsdRecovery} says: drops them
 * all, or keeps the entries the live list of a clean close names, verifying each, and rebuilds
 * the index and the segments' garbage counts from them.
 *
 * <p>Thread-safety: runs once, inside {@link SsdCache#open}, before the cache is shared.
 */
final class SegmentRecovery {
    private static final System.Logger LOG = System.getLogger(SsdCache.class.getName());

    private final FileSystem fs;
    private final Path directory;
    private final HashIndex index;
    private final ConcurrentSkipListMap<Integer, CacheSegment> segments;

    private SegmentRecovery(SsdCacheOptions options, HashIndex index,
            ConcurrentSkipListMap<Integer, CacheSegment> segments) {
        this.fs = options.fileSystem();
        this.directory = options.directory();
        this.index = index;
        this.segments = segments;
    }

    /**
     * Fills {@code index} and {@code segments} from the directory and returns the number the next
     * segment must take: above every segment file found, kept or not.
     */
    static int recover(SsdCacheOptions options, HashIndex index,
            ConcurrentSkipListMap<Integer, CacheSegment> segments) throws IOException {
        return new SegmentRecovery(options, index, segments).recover(options.recovery());
    }

    private int recover(SsdRecovery recovery) throws IOException {
        int nextSegment = 1;
        List<Integer> numbers = new ArrayList<>();
        for (String name : fs.list(directory)) {
            int number = CacheSegment.parseNumber(name);
            if (number > 0) {
                numbers.add(number);
                nextSegment = Math.max(nextSegment, number + 1);
            }
        }
        numbers.sort(null);
        long[] live = recovery == SsdRecovery.REBUILD ? LiveList.read(fs, directory) : null;
        LiveList.delete(fs, directory);
        for (int number : numbers) {
            Path path = directory.resolve(CacheSegment.fileName(number));
            if (live == null) {
                fs.delete(path);
            } else {
                rebuildSegment(number, path, live);
            }
        }
        if (live != null && live.length > 0 && index.size() < live.length) {
            LOG.log(System.Logger.Level.INFO, "SSD cache rebuilt {0} of {1} live entries in {2}",
                    index.size(), live.length, directory);
        }
        fs.syncDirectory(directory);
        return nextSegment;
    }

    private void rebuildSegment(int number, Path path, long[] live) throws IOException {
        ReadableFile reader = fs.openRead(path);
        CacheSegment segment = null;
        try {
            long size = reader.size();
            byte[] header = size >= SegmentHeader.BYTES ? reader.readFully(0, SegmentHeader.BYTES) : new byte[0];
            if (SegmentHeader.isValid(header, number)) {
                segment = new CacheSegment(number, path, reader, size, true);
                CacheSegment s = segment;
                long end = SegmentScanner.scan(reader, size, (offset, bytes, at, entrySize) -> {
                    long virtualOffset = VirtualOffset.of(number, offset);
                    if (Arrays.binarySearch(live, virtualOffset) < 0) {
                        s.addGarbage(entrySize);
                        return;
                    }
                    long hash = KeyHash.of(CacheEntryFormat.key(bytes, at));
                    HashIndex.Location previous = index.putIf(hash, virtualOffset, entrySize, () -> true);
                    if (previous != null) {
                        CacheSegment holder = segments.getOrDefault(
                                VirtualOffset.segment(previous.virtualOffset()), s);
                        holder.addGarbage(previous.size());
                    }
                });
                segment.addGarbage(size - end);
                segments.put(number, segment);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "SSD cache segment {0} unreadable, dropped: {1}", path, e);
            if (segment != null) {
                segments.remove(number, segment);
                index.removeSegment(number);
            }
            segment = null;
        }
        if (segment == null || segment.garbage() >= segment.written() - SegmentHeader.BYTES) {
            if (segment != null) {
                segments.remove(number, segment);
            }
            reader.close();
            fs.delete(path);
        }
    }
}
