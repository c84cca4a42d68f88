package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.SyncPolicy;
import dev.cairn.engine.cache.RowCache;
import dev.cairn.engine.cache.RowCacheOptions;
import dev.cairn.engine.cache.SsdCache;
import dev.cairn.engine.cache.SsdCacheOptions;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.row.SchemaCatalogue;
import dev.cairn.engine.row.SchemaCatalogueOptions;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Open and recovery: reads the manifest, opens the SSTables and value files it lists, replays
 * the commit logs it does not cover into a memtable, and (read-write) writes that memtable to
 * level 0, starts a new log, records the result in a new manifest and deletes every file the
 * manifest does not list. A crash at any point of this leaves a directory that recovers again.
 *
 * <p>Thread-safety: runs once, on the opening thread, before any other engine thread starts.
 */
final class Recovery {
    private static final System.Logger LOG = System.getLogger(Recovery.class.getName());

    /** What the write path starts from. */
    record Recovered(RecordFile.Writer log, long lastSequence) {
    }

    private final EngineOptions options;
    private final FileSystem fs;
    private final Path dir;
    private final Tiers tiers;
    private final VersionSet versions;
    private final ValueStore values;
    private long lastSequence;

    Recovery(EngineOptions options, Tiers tiers, VersionSet versions, ValueStore values) {
        this.options = options;
        this.fs = options.fileSystem();
        this.dir = options.directory();
        this.tiers = tiers;
        this.versions = versions;
        this.values = values;
    }

    /** Recovers for writing: the directory ends up holding exactly the new manifest's files. */
    Recovered recover(boolean existing, Flusher flusher) throws IOException {
        List<String> names = fs.list(dir);
        ManifestState state = load(existing);
        Memtable recovered = replayLogs(names, state);
        versions.setVisibleSequence(lastSequence);

        long newLog = versions.newFileNumber();
        RecordFile.Writer log = CommitPipeline.createLog(fs, dir, newLog);
        log.sync();
        fs.syncDirectory(dir);
        List<List<FileMeta>> levels = state.levels();
        Map<Long, Long> garbage = Map.of();
        if (!recovered.isEmpty()) {
            MergeJob.Output out = flusher.writeLevel0(recovered, lastSequence);
            levels = VersionSet.withLevel0Added(levels, out.files());
            garbage = out.garbage();
        }
        values.addGarbage(garbage);
        versions.lock().lock();
        try {
            versions.setMemtable(new Memtable(newLog));
        } finally {
            versions.lock().unlock();
        }
        synchronized (versions.manifestLock()) {
            versions.writeManifest(versions.manifest().withLevels(levels).withLog(newLog, lastSequence)
                    .withValueFiles(values.garbageByFile()));
        }
        versions.lock().lock();
        try {
            versions.installVersion(levels);
            versions.publishSuperVersion();
        } finally {
            versions.lock().unlock();
        }
        deleteUnlistedFiles();
        return new Recovered(log, lastSequence);
    }

    /**
     * Recovers for reading alone: unflushed log records stay in an in-memory memtable, and
     * nothing in the directory is created, changed or deleted. Returns the last sequence.
     */
    long recoverReadOnly() throws IOException {
        List<String> names = fs.list(dir);
        ManifestState state = load(true);
        Memtable recovered = replayLogs(names, state);
        versions.setVisibleSequence(lastSequence);
        versions.lock().lock();
        try {
            versions.setMemtable(recovered);
            versions.publishSuperVersion();
        } finally {
            versions.lock().unlock();
        }
        return lastSequence;
    }

    /** Reads the manifest and opens every file it lists; installs the first version. */
    private ManifestState load(boolean existing) throws IOException {
        ManifestState state = existing ? versions.manifestStore().read() : ManifestState.empty();
        long maxOnDisk = 0;
        for (Path tier : versions.files().tierDirectories()) {
            for (String name : fs.list(tier)) {
                maxOnDisk = Math.max(maxOnDisk, FileNames.number(name).orElse(0));
            }
        }
        versions.reserveFileNumbersBelow(Math.max(state.nextFileNumber(), maxOnDisk + 1));
        for (List<FileMeta> level : state.levels()) {
            for (FileMeta f : level) {
                versions.files().open(f.number(), versions.files().locate(f.number()));
            }
        }
        for (Map.Entry<Long, Long> v : state.valueFiles().entrySet()) {
            if (!fs.exists(FileNames.value(tiers.valueDirectory(), v.getKey()))) {
                throw new CorruptionException("value file " + FileNames.value(tiers.valueDirectory(), v.getKey())
                        + " is listed in the manifest but missing");
            }
            values.addSealed(v.getKey(), v.getValue());
        }
        versions.initialize(new Memtable(0), state.levels());
        versions.setRecoveredManifest(state);
        lastSequence = state.lastSequence();
        return state;
    }

    /** Replays the logs the manifest does not cover, oldest first, into a new memtable. */
    private Memtable replayLogs(List<String> names, ManifestState state) throws IOException {
        List<Long> logs = new ArrayList<>();
        for (String name : names) {
            if (FileNames.kind(name) == FileNames.Kind.LOG) {
                long n = FileNames.number(name).orElseThrow();
                if (n >= state.logNumber()) {
                    logs.add(n);
                }
            }
        }
        logs.sort(Comparator.naturalOrder());
        Memtable recovered = new Memtable(0);
        for (int i = 0; i < logs.size(); i++) {
            boolean last = i == logs.size() - 1;
            if (!replay(FileNames.log(dir, logs.get(i)), recovered, last, state)) {
                break;
            }
        }
        return recovered;
    }

    /** Replays one log; returns false when replay must stop here (a torn or invalid tail). */
    private boolean replay(Path path, Memtable into, boolean lastLog, ManifestState state) throws IOException {
        RecordFile.Contents contents = RecordFile.read(fs, path, CommitPipeline.LOG_MAGIC,
                CommitPipeline.LOG_FORMAT_VERSION);
        List<byte[]> records = contents.records();
        for (int i = 0; i < records.size(); i++) {
            BatchCodec.Decoded batch = BatchCodec.decode(records.get(i), path.toString());
            boolean verifyValues = options.syncPolicy() == SyncPolicy.PERIODIC || (lastLog && i == records.size() - 1);
            if (!pointersValid(batch.ops(), verifyValues, state)) {
                LOG.log(System.Logger.Level.WARNING, "commit log " + path
                        + " refers to value bytes that never became durable; replay stops there");
                return false;
            }
            long seq = batch.firstSequence();
            for (BatchCodec.LoggedOp op : batch.ops()) {
                into.add(InternalKeys.encode(op.tableId(), op.key(), seq, op.kind()), op.value());
                seq++;
            }
            lastSequence = Math.max(lastSequence, seq - 1);
        }
        if (contents.damagedTail() && !lastLog) {
            throw new CorruptionException("commit log " + path + " is damaged at offset " + contents.validBytes()
                    + " but later logs exist");
        }
        return !contents.damagedTail();
    }

    /**
     * Whether the values a replayed record points at are durable. A pointer into a value file the
     * manifest no longer lists was superseded by value GC's relocation, logged and synced later.
     */
    private boolean pointersValid(List<BatchCodec.LoggedOp> ops, boolean verifyValues, ManifestState state)
            throws IOException {
        for (BatchCodec.LoggedOp op : ops) {
            if (op.kind() == InternalKeys.KIND_VALUE_POINTER) {
                ValuePointer p = ValuePointer.decodeStored(op.value(), "a commit log record");
                if (!state.valueFiles().containsKey(p.fileNumber())) {
                    continue;
                }
                Path file = FileNames.value(tiers.valueDirectory(), p.fileNumber());
                if (!fs.exists(file) || fs.size(file) < p.offset() + p.length()) {
                    return false;
                }
                if (verifyValues) {
                    try {
                        values.read(p);
                    } catch (CorruptionException e) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private void deleteUnlistedFiles() throws IOException {
        ManifestState state = versions.manifest();
        Set<Long> liveTables = new HashSet<>();
        state.levels().forEach(l -> l.forEach(f -> liveTables.add(f.number())));
        for (Path tier : versions.files().tierDirectories()) {
            for (String name : fs.list(tier)) {
                FileNames.Kind kind = FileNames.kind(name);
                long number = FileNames.number(name).orElse(-1);
                boolean obsolete = switch (kind) {
                    case TABLE -> !liveTables.contains(number) || !tier.resolve(name).equals(versions.files().path(number));
                    case VALUE -> !state.valueFiles().containsKey(number) || !tier.equals(tiers.valueDirectory());
                    case LOG -> number < state.logNumber() || !tier.equals(dir);
                    case MANIFEST -> number != versions.manifestStore().currentNumber() || !tier.equals(dir);
                    case TEMP -> true;
                    default -> false;
                };
                if (obsolete) {
                    fs.delete(tier.resolve(name));
                }
            }
        }
    }

    /** The schema catalogue in the fast tier; read-only opens neither create nor change it. */
    static SchemaCatalogue openCatalogue(EngineOptions options, boolean readOnly) throws IOException {
        SchemaCatalogueOptions catalogueOptions = SchemaCatalogueOptions.builder(
                options.directory().resolve(DbImpl.CATALOGUE_DIRECTORY)).fileSystem(options.fileSystem()).build();
        return readOnly ? SchemaCatalogue.openReadOnly(catalogueOptions) : SchemaCatalogue.open(catalogueOptions);
    }

    /** The row cache the options ask for (memory, or memory and SSD segments), or null. */
    static RowCache openRowCache(EngineOptions options) throws IOException {
        if (options.rowCacheBytes() == 0) {
            return null;
        }
        RowCacheOptions cacheOptions = RowCacheOptions.builder().memoryBytes(options.rowCacheBytes()).build();
        if (options.ssdCacheBytes() == 0) {
            return RowCache.memoryOnly(cacheOptions);
        }
        long segment = Math.max(SsdCacheOptions.MIN_SEGMENT_BYTES,
                Math.min(SsdCacheOptions.DEFAULT_SEGMENT_BYTES, options.ssdCacheBytes() / 8));
        SsdCache ssd = SsdCache.open(SsdCacheOptions.builder(options.directory().resolve(DbImpl.ROW_CACHE_DIRECTORY))
                .fileSystem(options.fileSystem()).segmentBytes(segment)
                .capacityBytes(Math.max(options.ssdCacheBytes(), 2 * segment)).build());
        return RowCache.tiered(cacheOptions, ssd);
    }
}
