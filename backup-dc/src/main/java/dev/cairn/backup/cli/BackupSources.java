package dev.cairn.backup.cli;

import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.SourceOptions;
import dev.cairn.backup.source.cassandra.CassandraSource;
import dev.cairn.backup.source.embedded.EmbeddedSource;
import java.io.IOException;

/** Opens the source that {@link SourceOptions} names: the one place that knows every kind of source. */
public final class BackupSources {
    private BackupSources() {
    }

    public static BackupSource open(SourceOptions options) throws IOException {
        check(options);
        return switch (options.kind) {
            case cassandra -> CassandraSource.open(options);
            case embedded -> EmbeddedSource.open(options);
        };
    }

    /**
     * The options' own errors — missing, malformed, a file that cannot be read — found without
     * contacting anything: {@link #open} checks them first, and {@code schedule} at its start.
     */
    public static void check(SourceOptions options) {
        if (options.kind == null) {
            throw new IllegalArgumentException("--source is required: cassandra or embedded");
        }
        switch (options.kind) {
            case cassandra -> CassandraSource.check(options);
            case embedded -> EmbeddedSource.check(options);
        }
    }
}
