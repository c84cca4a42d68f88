package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Prints a manifest: file numbers, sequence, tables, SSTables per level, value files. */
public final class ManifestDump {
    private ManifestDump() {
    }

    public static void dump(FileSystem fs, Path path, PrintStream out) throws IOException {
        RecordFile.Contents contents = RecordFile.read(fs, path, ManifestStore.MAGIC, ManifestStore.FORMAT_VERSION);
        if (contents.records().size() != 1 || contents.damagedTail()) {
            throw new CorruptionException("manifest " + path + " is damaged");
        }
        ManifestState s = ManifestState.decode(contents.records().get(0), path.toString());
        out.printf("manifest %s: format version %d%n", path, ManifestStore.FORMAT_VERSION);
        out.printf("  nextFileNumber=%d lastSequence=%d logNumber=%d%n", s.nextFileNumber(), s.lastSequence(),
                s.logNumber());
        s.tables().entrySet().stream().sorted(Map.Entry.comparingByValue())
                .forEach(t -> out.printf("  table %d = %s%n", t.getValue(), t.getKey()));
        for (int level = 0; level < s.levels().size(); level++) {
            List<FileMeta> files = s.levels().get(level);
            for (FileMeta f : files) {
                out.printf("  L%d %06d.sst size=%d entries=%d [%s .. %s]%n", level, f.number(), f.size(), f.entries(),
                        Printable.internalKey(f.smallest()), Printable.internalKey(f.largest()));
            }
        }
        s.valueFiles().forEach((n, g) -> out.printf("  value file %06d.vlog garbage=%d%n", n, g));
    }
}
