package dev.cairn.engine.internal;

import dev.cairn.engine.DiskFullException;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.WriteBatch;
import dev.cairn.engine.fs.FileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses writes before the engine's file systems fill, so that a full disk never tears a record
 * of the commit log or the value file (the write path stops for good after a torn append, until
 * reopened). Before each group commit it reads the free space of the directories the engine
 * writes (one {@code statvfs} each) and fails every batch that would leave less than
 * {@link EngineOptions#reservedDiskBytes()} with {@link DiskFullException}; the rest of the group
 * commits as usual. A batch that deletes, with only small puts beside (a delete and the
 * reference counts it lowers), and value GC's relocations may go down to a quarter of the
 * reserve: they are how space comes back. The last quarter is left for flushes and compactions.
 * Refusals are reported to {@link SpacePressure}, and so are writes admitted with twice the
 * reserve still free: from a refusal until then, dead values' space is given back in place
 * ({@link DeadValueReclaimer}).
 *
 * <p>Write thread only.
 */
final class DiskSpaceGuard {
    /** Log framing and key encoding per operation, on top of its key and value. */
    private static final int OP_OVERHEAD_BYTES = 32;
    /** Put bytes a space-releasing batch may carry per delete. */
    private static final int PUT_BYTES_PER_DELETE = 1024;
    private static final System.Logger LOG = System.getLogger(DiskSpaceGuard.class.getName());

    private final FileSystem fs;
    private final List<Path> directories;
    private final long reserve;
    private final SpacePressure pressure;

    DiskSpaceGuard(EngineOptions options, SpacePressure pressure) {
        this.pressure = pressure;
        this.fs = options.fileSystem();
        this.directories = options.capacityDirectory().equals(options.directory())
                ? List.of(options.directory()) : List.of(options.directory(), options.capacityDirectory());
        this.reserve = options.reservedDiskBytes();
    }

    /** Fails the requests that do not fit and returns those that may go ahead, in order. */
    List<WriteQueue.Request> admit(List<WriteQueue.Request> group) {
        if (reserve == 0) {
            return group;
        }
        long usable = usableSpace();
        List<WriteQueue.Request> admitted = new ArrayList<>(group.size());
        long taken = 0;
        for (WriteQueue.Request r : group) {
            long bytes = bytes(r);
            boolean releases = releasesSpace(r);
            long floor = releases ? reserve / 4 : reserve;
            if (usable - taken - bytes < floor) {
                pressure.refused();
                r.fail(new DiskFullException("not enough disk space for this write: " + usable + " bytes free, "
                        + reserve + " kept in reserve (reservedDiskBytes); free space, and writes resume"));
                continue;
            }
            taken += bytes;
            admitted.add(r);
            if (!releases && bytes > 0 && usable - taken >= 2 * reserve) {
                pressure.admitted();
            }
        }
        return admitted;
    }

    /** The least free space of the engine's directories; unlimited if it cannot be read (the write goes ahead). */
    long usableSpace() {
        long min = Long.MAX_VALUE;
        for (Path dir : directories) {
            try {
                min = Math.min(min, fs.usableSpace(dir));
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot read the free space of " + dir + ": " + e);
            }
        }
        return min;
    }

    private static long bytes(WriteQueue.Request r) {
        if (r instanceof WriteQueue.BatchRequest b) {
            return b.bytes() + (long) OP_OVERHEAD_BYTES * b.batch().size();
        }
        if (r instanceof WriteQueue.RelocateRequest rel) {
            long bytes = 0;
            for (Relocation m : rel.relocations()) {
                bytes += m.value().length + m.userKey().length + OP_OVERHEAD_BYTES;
            }
            return bytes;
        }
        return 0;
    }

    private static boolean releasesSpace(WriteQueue.Request r) {
        if (r instanceof WriteQueue.RelocateRequest) {
            return true;
        }
        if (!(r instanceof WriteQueue.BatchRequest b)) {
            return false;
        }
        long deletes = 0;
        long putBytes = 0;
        for (WriteBatch.Op op : b.batch().ops()) {
            if (op.isDelete()) {
                deletes++;
            } else {
                putBytes += op.key().length + op.value().length;
            }
        }
        return deletes > 0 && putBytes <= deletes * PUT_BYTES_PER_DELETE;
    }
}
