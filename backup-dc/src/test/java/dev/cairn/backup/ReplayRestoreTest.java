package dev.cairn.backup;

import dev.cairn.store.embedded.DataDirLayout;
import dev.cairn.backup.cli.SourceFactory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.source.embedded.CheckpointReader;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Versioning;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore into a destination that replays versions gets each key's versions in one call, in
 * manifest order (newest first, to be written oldest first), with their content; an interrupted
 * restore resumes at a key, asking to clear the keys of the batch that was cut off.
 */
class ReplayRestoreTest {
    @TempDir
    Path dir;

    /** Records what it is asked to write; fails the first replay of one key when told to. */
    private static final class Recording implements RestoreDestination {
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
        final String name;
        volatile String failOn;

        Recording(String name) {
            this.name = name;
        }

        /** Names the restore's state file: each destination restores once. */
        @Override
        public String describe() {
            return name;
        }

        @Override
        public boolean bucketHasObjects(String bucket) {
            return false;
        }

        @Override
        public void ensureBucket(BucketInfo bucket) {
        }

        @Override
        public boolean restoresVersions() {
            return true;
        }

        @Override
        public boolean replaysVersions() {
            return true;
        }

        @Override
        public void put(BackupRow row, ContentSource content) throws IOException {
            assertTrue(!row.isVersion(), "a version goes to replay: " + row);
            calls.add("put " + row.bucket() + "/" + row.key() + " " + sha(content));
        }

        @Override
        public void replay(List<BackupRow> newestFirst, List<ContentSource> contents, boolean clearFirst)
                throws IOException {
            BackupRow first = newestFirst.get(0);
            String name = first.bucket() + "/" + first.key();
            if (name.equals(failOn)) {
                failOn = null;
                throw new IOException("cut off at " + name);
            }
            StringBuilder line = new StringBuilder("replay " + name + (clearFirst ? " cleared" : ""));
            for (int i = 0; i < newestFirst.size(); i++) {
                BackupRow r = newestFirst.get(i);
                assertEquals(name, r.bucket() + "/" + r.key());
                line.append(' ').append(r.version().version().versionId()).append('=').append(
                        r.hasContent() ? sha(contents.get(i)) : "marker");
            }
            calls.add(line.toString());
        }

        @Override
        public void replayOnTop(List<BackupRow> newestFirst, List<ContentSource> contents, int below, boolean resume)
                throws IOException {
            BackupRow first = newestFirst.get(0);
            StringBuilder line = new StringBuilder("onTop " + first.bucket() + "/" + first.key() + " below=" + below
                    + (resume ? " resumed" : ""));
            for (int i = 0; i < newestFirst.size(); i++) {
                BackupRow r = newestFirst.get(i);
                line.append(' ').append(r.version().version().versionId()).append('=').append(
                        r.hasContent() ? sha(contents.get(i)) : "marker");
            }
            calls.add(line.toString());
        }

        @Override
        public void setVersioning(String bucket, Versioning versioning) {
            calls.add("versioning " + bucket + " " + versioning);
        }

        private static String sha(ContentSource content) throws IOException {
            try (InputStream in = content.open()) {
                String sha = Seed.hash("SHA-256", in.readAllBytes());
                assertEquals(content.sha256(), sha);
                return sha.substring(0, 8);
            }
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aKeysVersionsAreReplayedTogetherAndAResumeClearsTheCutOffBatch() throws Exception {
        Path source = dir.resolve("source");
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(source)) {
            VersionedBackupTest.seed(s.store());
        }
        SourceFactory factory = options -> CheckpointReader.open(source.resolve(DataDirLayout.ENGINE_DIR), true, 0, false, "test checkpoint");
        Path report = dir.resolve("report.json");
        assertEquals(0, Main.commandLine(factory).execute("run", "--source", "embedded", "--target",
                "dir:" + dir.resolve("archive"), "--report", report.toString()));
        String id = Json.read(Files.readAllBytes(report), RunReport.class, "report").backupId();
        DirectoryTarget archive = new DirectoryTarget(dir.resolve("archive"));
        List<BackupRow> rows = StoreFixture.rows(archive, id);

        Recording whole = new Recording("whole");
        run(archive, id, whole);
        List<String> expected = new ArrayList<>(List.of("versioning susp"));
        String last = null;
        for (BackupRow r : rows) {
            String name = r.bucket() + "/" + r.key();
            // susp/y's only version is its null delete marker: nothing older to write in the first pass.
            if (r.isVersion() && !name.equals(last) && !name.equals("susp/y")) {
                expected.add("replay " + name);
            } else if (!r.isVersion()) {
                expected.add("put " + name);
            }
            last = name;
        }
        // The null versions of the Suspended bucket: written while it is Suspended, then nothing is newer.
        expected.addAll(List.of("versioning susp", "onTop susp/x", "onTop susp/y", "versioning susp", "versioning susp"));
        assertEquals(expected, names(whole.calls), "one call per key and pass, each key once per pass");
        assertEquals(List.of("versioning susp ENABLED", "versioning susp SUSPENDED", "versioning susp ENABLED",
                        "versioning susp SUSPENDED"),
                whole.calls.stream().filter(c -> c.startsWith("versioning")).toList(), "toggled per pass, left Suspended");
        assertTrue(whole.calls.stream().anyMatch(c -> c.startsWith("replay susp/x ") && c.split(" ").length == 3),
                "susp/x: only its version older than the null one in the first pass: " + whole.calls);
        assertTrue(whole.calls.stream().anyMatch(c -> c.startsWith("onTop susp/x below=1 null=")), whole.calls.toString());
        assertTrue(whole.calls.stream().anyMatch(c -> c.equals("onTop susp/y below=0 null=marker")), whole.calls.toString());
        assertTrue(whole.calls.stream().anyMatch(c -> c.startsWith("replay docs/a ") && c.split(" ").length == 6),
                "docs/a: four versions in one call: " + whole.calls);
        assertTrue(whole.calls.stream().noneMatch(c -> c.contains("cleared")));

        Recording cut = new Recording("cut off");
        cut.failOn = "docs/big";
        assertThrows(IOException.class, () -> run(archive, id, cut));
        run(archive, id, cut);
        List<String> resumed = cut.calls.subList(cut.calls.size() - expected.size(), cut.calls.size());
        assertEquals(expected, names(resumed), "the resumed restore writes every key of the cut-off batch again");
        assertTrue(resumed.stream().filter(c -> c.startsWith("replay")).allMatch(c -> c.contains(" cleared ")),
                "its replays clear what the interrupted one wrote first: " + resumed);
        assertEquals(whole.calls, resumed.stream().map(c -> c.replace(" cleared", "")).toList());
    }

    private static List<String> names(List<String> calls) {
        return calls.stream().map(c -> c.split(" ")[0] + " " + c.split(" ")[1]).toList();
    }

    private static void run(DirectoryTarget archive, String id, RestoreDestination into) throws Exception {
        try (Progress progress = new Progress("restore", 0, new PrintStream(new ByteArrayOutputStream()), false)) {
            new Restore(archive, id, into, Set.of(), "", false, 1, new PrintStream(new ByteArrayOutputStream()),
                    archive.root().resolveSibling("restore-state")).run(progress);
        }
    }
}
