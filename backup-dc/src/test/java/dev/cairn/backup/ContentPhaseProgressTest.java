package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.report.Progress;
import dev.cairn.backup.run.BackupRun;
import dev.cairn.backup.run.RunSettings;
import dev.cairn.backup.source.ForwardingBackupSource;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line while content is copied ahead of the rows: the bytes read so far show as read
 * (not "0 B read" until the rows come), and once the rows come, each byte counts once: at the end
 * "read" is the objects' bytes.
 */
class ContentPhaseProgressTest {
    @TempDir
    Path dir;

    @Test
    void contentCopiedAheadCountsAsReadOnce() throws Exception {
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(dir.resolve("store"))) {
            s.store().createBucket("b", BucketAcl.PRIVATE);
            List<byte[]> contents = new ArrayList<>();
            long total = 0;
            for (int i = 0; i < 30; i++) {
                byte[] b = Seed.bytes(5_000 + i * 37, i);
                Seed.put(s.store(), "b", "k" + i, b, Seed.attributes(i));
                contents.add(b);
                total += b.length;
            }
            Seed.put(s.store(), "b", "same-as-k3", contents.get(3), Seed.attributes(3));
            total += contents.get(3).length;

            AtomicReference<Progress> progress = new AtomicReference<>();
            AtomicReference<String> lineAfterContent = new AtomicReference<>();
            long[] readAhead = {0, -1};
            var source = new ForwardingBackupSource(new ObjectStoreSource(s.store(), "test store", 10, null)) {
                @Override
                public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
                    for (byte[] b : contents) {
                        String sha = Seed.hash("SHA-256", b);
                        if (filter.wants(sha, b.length)) {
                            sink.accept(sha, b, 0, b.length);
                            readAhead[0] += b.length;
                        }
                    }
                    readAhead[1] = progress.get().bytes.get();
                    lineAfterContent.set(progress.get().line());
                }
            };
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            try (Progress p = new Progress("backup", 0, new PrintStream(log, true, StandardCharsets.UTF_8), false)) {
                progress.set(p);
                new BackupRun(source, new DirectoryTarget(dir.resolve("archive")),
                        new RunSettings(2, 2, 10, Duration.ofSeconds(10), Duration.ofMinutes(2)),
                        new PrintStream(log, true, StandardCharsets.UTF_8), p).execute();
                assertTrue(readAhead[0] > 0);
                assertEquals(readAhead[0], readAhead[1], "the content read ahead counts as read: " + lineAfterContent.get());
                assertTrue(lineAfterContent.get().contains(Progress.human(readAhead[0]) + " read"), lineAfterContent.get());
                assertEquals(31, p.objects.get());
                assertEquals(total, p.bytes.get(), "each object's bytes count once");
            }
        }
    }
}
