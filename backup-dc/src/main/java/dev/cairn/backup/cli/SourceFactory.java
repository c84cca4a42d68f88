package dev.cairn.backup.cli;

import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.SourceOptions;
import java.io.IOException;

/** Opens the source a run reads: the real one in the job's process, another in tests. */
@FunctionalInterface
public interface SourceFactory {
    BackupSource open(SourceOptions options) throws IOException;
}
