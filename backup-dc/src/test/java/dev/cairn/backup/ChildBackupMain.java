package dev.cairn.backup;

import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.store.ObjectStoreSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The real command line in a child JVM, reading an embedded store directory (the first argument)
 * instead of the sources {@code --source} names, each content read slowed by the second argument
 * (milliseconds) so that a test can kill the job mid-run.
 */
public final class ChildBackupMain {
    private ChildBackupMain() {
    }

    public static void main(String[] args) {
        Path storeDir = Path.of(args[0]);
        long delayMillis = Long.parseLong(args[1]);
        Main.SourceFactory factory = options -> slowed(StoreFixture.source(storeDir), delayMillis);
        String[] rest = java.util.Arrays.copyOfRange(args, 2, args.length);
        System.exit(Main.commandLine(factory).execute(rest));
    }

    static BackupSource slowed(ObjectStoreSource s, long delayMillis) {
        return new BackupSource() {
            @Override
            public String describe() {
                return s.describe();
            }

            @Override
            public List<dev.cairn.store.BucketInfo> buckets() throws IOException {
                return s.buckets();
            }

            @Override
            public List<Split> splits() throws IOException {
                return s.splits();
            }

            @Override
            public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
                s.scan(split, resumeAfter, sink);
            }

            @Override
            public InputStream openContent(String sha256) throws IOException {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return s.openContent(sha256);
            }

            @Override
            public void close() throws IOException {
                s.close();
            }
        };
    }
}
