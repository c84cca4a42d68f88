package dev.cairn.backup.source;

import java.io.IOException;

/** Opens the source that {@link SourceOptions} names. */
public final class BackupSources {
    private BackupSources() {
    }

    public static BackupSource open(SourceOptions options) throws IOException {
        if (options.kind == null) {
            throw new IllegalArgumentException("--source is required: cassandra or embedded");
        }
        // The Cassandra and embedded sources are being built; until then both refuse clearly.
        throw new UnsupportedOperationException("--source " + options.kind + " is not available in this build yet");
    }
}
