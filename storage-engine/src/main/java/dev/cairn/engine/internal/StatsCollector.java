package dev.cairn.engine.internal;

import dev.cairn.engine.EngineStats;
import dev.cairn.engine.cache.RowCache;
import dev.cairn.engine.row.SchemaCatalogue;
import dev.cairn.engine.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Gathers {@link EngineStats} from one super version and the engine's counters.
 *
 * <p>Thread-safety: any thread, no lock; the figures of one call come from one super version,
 * the counters are read one by one (each exact, not all at the same instant).
 */
final class StatsCollector {
    private StatsCollector() {
    }

    static EngineStats collect(VersionSet versions, ValueStore values, EngineCounters counters, RowCache rowCache,
                               SchemaCatalogue catalogue) {
        SuperVersion sv = versions.acquire();
        try {
            List<Integer> files = new ArrayList<>();
            List<Long> bytes = new ArrayList<>();
            long indexBytes = 0;
            long entries = 0;
            for (int level = 0; level < sv.version.levels().size(); level++) {
                files.add(sv.version.level(level).size());
                bytes.add(sv.version.levelBytes(level));
                for (FileMeta f : sv.version.level(level)) {
                    entries += f.entries();
                    SSTableReader r = versions.files().readerIfOpen(f.number());
                    if (r != null) {
                        indexBytes += r.memoryBytes();
                    }
                }
            }
            long memBytes = sv.mem.approximateBytes();
            for (Memtable m : sv.immutables) {
                memBytes += m.approximateBytes();
            }
            return new EngineStats(List.copyOf(files), List.copyOf(bytes), values.fileCount(), values.totalBytes(),
                    values.garbageBytes(), memBytes, indexBytes, entries, versions.files().cacheHits(),
                    versions.files().cacheMisses(), counters.userBytesWritten.get(), counters.flushes.get(),
                    counters.compactions.get(), counters.compactionBytesWritten.get(), counters.valueGcRuns.get(),
                    counters.writeStalls.get(), rowCache == null ? null : rowCache.stats(),
                    catalogue == null ? 0 : catalogue.schemaCount(), catalogue == null ? 0 : catalogue.valueCount());
        } finally {
            sv.unref();
        }
    }
}
