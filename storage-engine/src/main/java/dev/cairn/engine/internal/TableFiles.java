package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.sstable.BlockCache;
import dev.cairn.engine.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open SSTables: a reader per live file number, where each file lives (fast or capacity
 * tier), and the block cache they share.
 *
 * <p>Thread-safety: safe for any thread (concurrent maps). A reader is closed by
 * {@link #release} only once no {@link Version} references its file, so a reader handed out for
 * a referenced file stays open while the reference is held.
 */
final class TableFiles {
    private static final System.Logger LOG = System.getLogger(TableFiles.class.getName());

    private final FileSystem fs;
    private final Tiers tiers;
    private final BlockCache blockCache;
    private final ConcurrentHashMap<Long, SSTableReader> readers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Path> paths = new ConcurrentHashMap<>();

    TableFiles(FileSystem fs, Tiers tiers, long blockCacheBytes) {
        this.fs = fs;
        this.tiers = tiers;
        this.blockCache = new BlockCache(blockCacheBytes);
    }

    /** The reader of a live file; throws if none is open (a reference-counting bug). */
    SSTableReader reader(long number) {
        SSTableReader r = readers.get(number);
        if (r == null) {
            throw new IllegalStateException("no open reader for table file " + number);
        }
        return r;
    }

    /** The reader of {@code number}, or null when it is not open. */
    SSTableReader readerIfOpen(long number) {
        return readers.get(number);
    }

    Path path(long number) {
        return paths.get(number);
    }

    void openAll(List<FileMeta> files, Path directory) throws IOException {
        for (FileMeta f : files) {
            open(f.number(), FileNames.table(directory, f.number()));
        }
    }

    void open(long number, Path path) throws IOException {
        readers.put(number, SSTableReader.open(fs, path, number, blockCache));
        paths.put(number, path);
    }

    /** An SSTable of the manifest: on the fast tier or the capacity tier. */
    Path locate(long number) throws IOException {
        for (Path tier : tierDirectories()) {
            Path path = FileNames.table(tier, number);
            if (fs.exists(path)) {
                return path;
            }
        }
        throw new CorruptionException("table file " + FileNames.table(tiers.fast(), number)
                + " is listed in the manifest but missing" + (tiers.split() ? " from both tiers" : ""));
    }

    List<Path> tierDirectories() {
        return tiers.split() ? List.of(tiers.fast(), tiers.capacity()) : List.of(tiers.fast());
    }

    /** Closes the reader of a file no version references any more, and deletes the file if asked. */
    void release(long number, boolean delete) {
        SSTableReader r = readers.remove(number);
        blockCache.invalidateFile(number);
        try {
            if (r != null) {
                r.close();
            }
            if (delete) {
                Path path = paths.remove(number);
                if (path != null) {
                    fs.delete(path);
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete obsolete table " + number + ": " + e);
        }
    }

    long cacheHits() {
        return blockCache.hits();
    }

    long cacheMisses() {
        return blockCache.misses();
    }

    /** Closes every reader; returns the first failure instead of throwing it. */
    IOException closeAll() {
        IOException failure = null;
        for (SSTableReader r : readers.values()) {
            try {
                r.close();
            } catch (IOException e) {
                failure = failure == null ? e : failure;
            }
        }
        return failure;
    }
}
