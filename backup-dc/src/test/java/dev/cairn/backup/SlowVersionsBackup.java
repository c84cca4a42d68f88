package dev.cairn.backup;

import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.backup.source.ForwardingBackupSource;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.VersionRecord;
import java.io.IOException;

/**
 * {@code bin/cairn backup} as a child JVM for {@link CassandraKillVersionsTest}: the real command
 * and source, with each row of the {@code versions} pass handed over {@code cairn.test.versions-delay-ms}
 * later, so that the pass lasts long enough to be killed in, whatever the machine's speed.
 */
public final class SlowVersionsBackup {
    private SlowVersionsBackup() {
    }

    public static void main(String[] args) {
        long delay = Long.getLong("cairn.test.versions-delay-ms", 0);
        System.exit(Main.commandLine(o -> new Slowed(BackupSources.open(o), delay)).execute(args));
    }

    private static final class Slowed extends ForwardingBackupSource {
        private final long delayMs;

        Slowed(BackupSource inner, long delayMs) {
            super(inner);
            this.delayMs = delayMs;
        }

        @Override
        public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
            inner.scan(split, resumeAfter, new RowSink() {
                @Override
                public void accept(String bucket, ObjectInfo row, long[] partSizes, String position) throws IOException {
                    sink.accept(bucket, row, partSizes, position);
                }

                @Override
                public void acceptVersion(String bucket, VersionRecord version, String position) throws IOException {
                    if (position.startsWith("v") && delayMs > 0) {
                        try {
                            Thread.sleep(delayMs);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IOException(e);
                        }
                    }
                    sink.acceptVersion(bucket, version, position);
                }
            });
        }
    }
}
