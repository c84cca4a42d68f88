package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reads and atomically replaces the manifest: a new {@code MANIFEST-N} is written and synced,
 * then {@code CURRENT} is replaced by rename, then the directory is synced. A crash at any point
 * leaves either the old or the new state. Callers serialize {@link #write}.
 */
final class ManifestStore {
    static final String MAGIC = "CAIRNMAN";
    /** DO NOT CHANGE without a migration: embedded in on-disk data. */
    static final int FORMAT_VERSION = 1;

    private final FileSystem fs;
    private final Path dir;
    private long currentNumber = -1;

    ManifestStore(FileSystem fs, Path dir) {
        this.fs = fs;
        this.dir = dir;
    }

    boolean exists() throws IOException {
        return fs.exists(dir.resolve(FileNames.CURRENT));
    }

    long currentNumber() {
        return currentNumber;
    }

    ManifestState read() throws IOException {
        Path currentFile = dir.resolve(FileNames.CURRENT);
        String name;
        try (ReadableFile f = fs.openRead(currentFile)) {
            long size = f.size();
            if (size <= 1 || size > 256) {
                throw new CorruptionException("malformed " + currentFile + " (" + size + " bytes)");
            }
            name = new String(f.readFully(0, (int) size), StandardCharsets.UTF_8);
        }
        if (!name.endsWith("\n") || FileNames.kind(name.trim()) != FileNames.Kind.MANIFEST) {
            throw new CorruptionException("malformed " + currentFile + ": '" + name.trim() + "'");
        }
        name = name.trim();
        Path manifest = dir.resolve(name);
        RecordFile.Contents contents = RecordFile.read(fs, manifest, MAGIC, FORMAT_VERSION);
        if (contents.records().size() != 1 || contents.damagedTail()) {
            throw new CorruptionException("manifest " + manifest + " is damaged (" + contents.records().size()
                    + " valid records, " + contents.validBytes() + " of " + contents.fileBytes() + " bytes valid)");
        }
        currentNumber = FileNames.number(name).orElseThrow();
        return ManifestState.decode(contents.records().get(0), manifest.toString());
    }

    /** Makes {@code state} the durable state. {@code state} must reserve {@code number} already. */
    void write(ManifestState state, long number) throws IOException {
        Path manifest = FileNames.manifest(dir, number);
        Path temp = dir.resolve(FileNames.CURRENT + FileNames.TEMP_SUFFIX);
        try {
            try (RecordFile.Writer w = new RecordFile.Writer(fs, manifest, MAGIC, FORMAT_VERSION, WriteLifetime.SHORT)) {
                w.append(state.encode());
                w.sync();
            }
            try (WritableFile f = fs.create(temp, WriteLifetime.SHORT)) {
                f.append(ByteBuffer.wrap((manifest.getFileName() + "\n").getBytes(StandardCharsets.UTF_8)));
                f.sync();
            }
        } catch (IOException | RuntimeException e) {
            // CURRENT still names the previous manifest; what this write left is garbage (a full disk's, say).
            for (Path partial : new Path[] {manifest, temp}) {
                try {
                    fs.delete(partial);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        fs.rename(temp, dir.resolve(FileNames.CURRENT));
        fs.syncDirectory(dir);
        long previous = currentNumber;
        currentNumber = number;
        if (previous >= 0 && previous != number) {
            fs.delete(FileNames.manifest(dir, previous));
        }
    }
}
