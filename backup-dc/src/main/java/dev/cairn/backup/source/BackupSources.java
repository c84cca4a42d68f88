package dev.cairn.backup.source;

import dev.cairn.backup.source.cassandra.CassandraSource;
import dev.cairn.backup.source.embedded.EmbeddedSource;
import java.io.IOException;

/** Opens the source that {@link SourceOptions} names. */
public final class BackupSources {
    private BackupSources() {
    }

    public static BackupSource open(SourceOptions options) throws IOException {
        if (options.kind == null) {
            throw new IllegalArgumentException("--source is required: cassandra or embedded");
        }
        return switch (options.kind) {
            case cassandra -> CassandraSource.open(options);
            case embedded -> EmbeddedSource.open(options);
        };
    }
}
