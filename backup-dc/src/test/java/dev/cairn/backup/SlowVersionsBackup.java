package dev.cairn.backup;

import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.BackupSources;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.VersionRecord;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

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

    private record Slowed(BackupSource inner, long delayMs) implements BackupSource {
        @Override
        public String describe() {
            return inner.describe();
        }

        @Override
        public List<BucketInfo> buckets() throws IOException {
            return inner.buckets();
        }

        @Override
        public boolean suppliesVersions() {
            return inner.suppliesVersions();
        }

        @Override
        public List<Split> splits() throws IOException {
            return inner.splits();
        }

        @Override
        public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
            inner.scan(split, resumeAfter, new RowSink() {
                @Override
                public void accept(String bucket, ObjectInfo row, String position) throws IOException {
                    sink.accept(bucket, row, position);
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

        @Override
        public InputStream openContent(String sha256) throws IOException {
            return inner.openContent(sha256);
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }
}
