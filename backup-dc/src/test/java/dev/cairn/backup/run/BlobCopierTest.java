package dev.cairn.backup.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.archive.PackWriter;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentGoneException;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Content that vanishes while the copier reads it, as it can on a live Cassandra source. */
class BlobCopierTest {
    private static final byte[] CONTENT = "an image, or twenty-odd bytes standing in for one".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void contentReclaimedMidReadLeavesTheRowOut() throws Exception {
        Outcome outcome = copyWith(Open.GONE_MID_READ, Open.ABSENT);
        assertEquals(BlobCopier.Outcome.MISSING_IN_SOURCE, outcome.result);
        assertEquals(2, outcome.opens);
    }

    @Test
    void contentWhosePartsArriveLateIsReadAgain() throws Exception {
        Outcome outcome = copyWith(Open.GONE_MID_READ, Open.WHOLE, Open.WHOLE);
        assertEquals(BlobCopier.Outcome.COPIED, outcome.result);
        assertEquals(3, outcome.opens);
    }

    @Test
    void contentThatStaysBrokenFailsTheCopy() {
        IOException e = assertThrows(IOException.class, () -> copyWith(
                Open.GONE_MID_READ, Open.WHOLE, Open.GONE_MID_READ, Open.WHOLE, Open.GONE_MID_READ, Open.WHOLE,
                Open.GONE_MID_READ));
        assertTrue(e.getMessage().contains("gone"), e.getMessage());
    }

    @Test
    void otherReadErrorsAreNotRetried() {
        IOException e = assertThrows(IOException.class, () -> copyWith(Open.FAILS, Open.WHOLE));
        assertTrue(e.getMessage().contains("disk"), e.getMessage());
    }

    private enum Open { WHOLE, ABSENT, GONE_MID_READ, FAILS }

    private record Outcome(BlobCopier.Outcome result, int opens) {
    }

    private Outcome copyWith(Open... opens) throws Exception {
        String sha = Hex.encode(MessageDigest.getInstance("SHA-256").digest(CONTENT));
        ScriptedSource source = new ScriptedSource(new ArrayDeque<>(List.of(opens)));
        DirectoryTarget target = new DirectoryTarget(dir);
        BlobLocations locations = new BlobLocations();
        try (PackWriter packs = new PackWriter(target, locations, PackWriter.PACK_BYTES)) {
            BlobCopier copier = new BlobCopier(source, target, locations, packs, 1);
            ObjectInfo row = new ObjectInfo("k", sha, CONTENT.length, "etag", ObjectAttributes.EMPTY, 0, 0, Map.of());
            BlobCopier.Outcome result = copier.ensure("b", row);
            return new Outcome(result, source.opened);
        }
    }

    private static final class ScriptedSource implements BackupSource {
        private final Deque<Open> script;
        int opened;

        ScriptedSource(Deque<Open> script) {
            this.script = script;
        }

        @Override
        public InputStream openContent(String sha256) throws IOException {
            opened++;
            return switch (script.removeFirst()) {
                case WHOLE -> new ByteArrayInputStream(CONTENT);
                case ABSENT -> null;
                case FAILS -> throw new IOException("disk on fire");
                case GONE_MID_READ -> new InputStream() {
                    private int served;

                    @Override
                    public int read() throws IOException {
                        if (served == 8) {
                            throw new ContentGoneException("chunk 1 of content " + sha256 + " is gone");
                        }
                        return CONTENT[served++] & 0xFF;
                    }
                };
            };
        }

        @Override
        public String describe() {
            return "scripted";
        }

        @Override
        public List<BucketInfo> buckets() {
            return List.of();
        }

        @Override
        public List<Split> splits() {
            return List.of();
        }

        @Override
        public void scan(Split split, String resumeAfter, RowSink sink) {
        }

        @Override
        public void close() {
        }
    }
}
