package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.sstable.SSTableOptions;
import dev.cairn.engine.sstable.SSTableWriter;
import dev.cairn.engine.sstable.TableProperties;
import dev.cairn.engine.sstable.WriteThrottle;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Writes a merged stream of internal keys into new SSTables, dropping what no reader can see:
 * a version shadowed by a newer one that every snapshot sees, and a deletion that every snapshot
 * sees when no deeper level may hold the key. Used by flushes (one memtable) and compactions.
 * Value pointers it drops become garbage of their value files.
 */
final class MergeJob {
    record Output(List<FileMeta> files, Map<Long, Long> garbage, long bytesWritten) {
    }

    private final FileSystem fs;
    private final Path dir;
    private final SSTableOptions tableOptions;
    private final WriteLifetime lifetime;
    private final WriteThrottle throttle;
    private final long targetFileBytes;
    private final LongSupplier fileNumbers;

    MergeJob(FileSystem fs, Path dir, SSTableOptions tableOptions, WriteLifetime lifetime, WriteThrottle throttle,
             long targetFileBytes, LongSupplier fileNumbers) {
        this.fs = fs;
        this.dir = dir;
        this.tableOptions = tableOptions;
        this.lifetime = lifetime;
        this.throttle = throttle;
        this.targetFileBytes = targetFileBytes;
        this.fileNumbers = fileNumbers;
    }

    /**
     * @param smallestSnapshot the oldest sequence any reader may read at
     * @param keyIsBaseLevel   true when no deeper level may hold the (internal) key's user key
     */
    Output run(InternalIterator input, long smallestSnapshot, Predicate<byte[]> keyIsBaseLevel) throws IOException {
        List<FileMeta> files = new ArrayList<>();
        Map<Long, Long> garbage = new HashMap<>();
        long written = 0;
        SSTableWriter writer = null;
        long writerNumber = -1;
        byte[] lastUserKey = null;
        long lastSequenceForKey = Long.MAX_VALUE;
        try {
            input.seekToFirst();
            while (input.valid()) {
                byte[] key = input.key();
                byte[] value = input.value();
                boolean sameKey = lastUserKey != null && InternalKeys.sameUserKey(key, lastUserKey);
                if (!sameKey) {
                    lastSequenceForKey = Long.MAX_VALUE;
                    if (writer != null && writer.estimatedSize() >= targetFileBytes) {
                        written += finish(writer, writerNumber, files);
                        writer = null;
                    }
                }
                long sequence = InternalKeys.sequence(key);
                byte kind = InternalKeys.kind(key);
                boolean drop;
                if (lastSequenceForKey <= smallestSnapshot) {
                    drop = true;
                } else {
                    drop = kind == InternalKeys.KIND_DELETE && sequence <= smallestSnapshot && keyIsBaseLevel.test(key);
                }
                lastSequenceForKey = sequence;
                lastUserKey = key;
                if (drop) {
                    if (kind == InternalKeys.KIND_VALUE_POINTER) {
                        ValuePointer p = ValuePointer.decodeStored(value, "an SSTable being merged");
                        garbage.merge(p.fileNumber(), ValueRecords.recordBytes(key, p), Long::sum);
                    }
                } else {
                    if (writer == null) {
                        writerNumber = fileNumbers.getAsLong();
                        writer = new SSTableWriter(fs, FileNames.table(dir, writerNumber), lifetime, tableOptions,
                                throttle);
                    }
                    writer.add(key, value);
                }
                input.next();
            }
            if (writer != null) {
                written += finish(writer, writerNumber, files);
                writer = null;
            }
        } catch (IOException | RuntimeException e) {
            if (writer != null) {
                try {
                    writer.abandon();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            for (FileMeta f : files) {
                fs.delete(FileNames.table(dir, f.number()));
            }
            throw e;
        }
        return new Output(files, garbage, written);
    }

    private static long finish(SSTableWriter writer, long number, List<FileMeta> files) throws IOException {
        TableProperties p = writer.finish();
        files.add(new FileMeta(number, p.fileSize(), p.entryCount(), p.smallestKey(), p.largestKey()));
        return p.fileSize();
    }
}
