package dev.cairn.engine.internal;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * Checkpoints: an openable copy of the engine's flushed state in a new directory. SSTables and
 * sealed value files are hard-linked (copied across file systems), the schema catalogue is
 * copied, and a manifest naming exactly those files is written; the directory appears by rename
 * only once complete.
 *
 * <p>Thread-safety: {@link #checkpoint} may be called from any thread; the copy runs on the
 * compaction thread, so no compaction or value GC deletes a file while it is linked.
 */
final class Checkpointer {
    private final FileSystem fs;
    private final Path dir;
    private final Tiers tiers;
    private final VersionSet versions;
    private final ValueStore values;
    private final CommitPipeline pipeline;
    private final Compactor compactor;

    Checkpointer(FileSystem fs, Path dir, Tiers tiers, VersionSet versions, ValueStore values, CommitPipeline pipeline,
                 Compactor compactor) {
        this.fs = fs;
        this.dir = dir;
        this.tiers = tiers;
        this.versions = versions;
        this.values = values;
        this.pipeline = pipeline;
        this.compactor = compactor;
    }

    /** Writes the checkpoint; the caller has flushed, so every acknowledged write is in a file. */
    void checkpoint(Path target) throws IOException {
        compactor.runOnCompactionThread(() -> {
            pipeline.submitTask(() -> {
                values.sealForCheckpoint();
                return null;
            });
            ManifestState state = versions.manifest();
            Path temp = target.resolveSibling(target.getFileName() + FileNames.TEMP_SUFFIX);
            fs.createDirectories(temp);
            for (List<FileMeta> level : state.levels()) {
                for (FileMeta f : level) {
                    linkOrCopy(versions.files().path(f.number()), FileNames.table(temp, f.number()));
                }
            }
            for (long number : state.valueFiles().keySet()) {
                linkOrCopy(FileNames.value(tiers.valueDirectory(), number), FileNames.value(temp, number));
            }
            // Copied, not linked: the catalogue's last segment is still appended to. Every id a row
            // of this checkpoint uses was durable before the row, so the copy holds it.
            Path catalogueDir = dir.resolve(DbImpl.CATALOGUE_DIRECTORY);
            fs.createDirectories(temp.resolve(DbImpl.CATALOGUE_DIRECTORY));
            for (String name : fs.list(catalogueDir)) {
                copy(catalogueDir.resolve(name), temp.resolve(DbImpl.CATALOGUE_DIRECTORY).resolve(name));
            }
            ManifestStore copy = new ManifestStore(fs, temp);
            long manifestNumber = state.nextFileNumber();
            copy.write(state.withLog(manifestNumber + 1, versions.visibleSequence())
                    .withNextFileNumber(manifestNumber + 2), manifestNumber);
            fs.syncDirectory(temp);
            fs.rename(temp, target);
            fs.syncDirectory(target.toAbsolutePath().getParent());
            return null;
        });
    }

    /** Hard links when the target is on the same file system; copies otherwise (another tier's disk). */
    private void linkOrCopy(Path source, Path target) throws IOException {
        try {
            fs.link(source, target);
        } catch (IOException linkFailed) {
            copy(source, target);
        }
    }

    private void copy(Path source, Path target) throws IOException {
        try (var in = fs.openRead(source); var out = fs.create(target, WriteLifetime.LONG)) {
            ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
            long at = 0;
            long size = in.size();
            while (at < size) {
                buffer.clear();
                int n = in.read(at, buffer);
                if (n < 0) {
                    break;
                }
                buffer.flip();
                out.append(buffer);
                at += n;
            }
            out.sync();
        }
    }
}
