package dev.cairn.backup.restore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cairn.backup.ManualClock;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.target.DirectoryTarget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RestoreStateTest {
    @Test
    void aStateFileWithoutKeyCountsIsRead() throws IOException {
        String older = "{\"backupId\":\"b1\",\"destination\":\"s3 x\",\"filter\":\"f\",\"rowsDone\":1000,\"objects\":7,"
                + "\"bytes\":9,\"finished\":false,\"pass\":2}";
        Restore.State s = Json.read(older.getBytes(StandardCharsets.UTF_8), Restore.State.class, "state");
        assertEquals(2, s.pass());
        assertEquals(1000, s.rowsDone());
        assertNull(s.keysBefore());
        assertNull(s.uploads());
        Restore.State withCounts = new Restore.State("b1", "s3 x", "f", 1000, 7, 9, false, 1, List.of(3, 0, 5));
        assertEquals(withCounts, Json.read(Json.write(withCounts), Restore.State.class, "state"));
    }

    @Test
    void theUploadsInFlightAreReadBack() throws IOException {
        Restore.State s = new Restore.State("b1", "s3 x", "f", 1000, 7, 9, false, 0, null,
                List.of(new PendingUpload("photos", "a/b.tif", "0123abcd", 1764000000000L),
                        PendingUpload.intent("photos", "c.tif", 1764000000001L)));
        assertEquals(s, Json.read(Json.write(s), Restore.State.class, "state"));
    }

    @Test
    void anIntentIsDatedByTheRestoresClockAndDurableBeforeItsUploadStarts(@TempDir Path dir) throws IOException {
        ManualClock clock = new ManualClock(Instant.parse("2031-05-01T10:00:00Z"));
        clock.advance(Duration.ofMillis(1234));
        DirectoryTarget directory = new DirectoryTarget(dir);
        Restore.State state = new Restore.State("b1", "s3 x", "f", 0, 0, 0, false, 0);
        RestoreStateFile file = new RestoreStateFile(directory, "state.json", state, clock);
        PendingUpload intent = file.intent("photos", "c.tif");
        file.started(intent);
        Restore.State saved = Json.read(directory.read("state.json"), Restore.State.class, "state");
        assertEquals(List.of(new PendingUpload("photos", "c.tif", null, Instant.parse("2031-05-01T10:00:01.234Z").toEpochMilli())),
                saved.uploads());
    }

    @Test
    void uploadsRecordedBeforeIntentsAreReadAsIdsWithoutTime() throws IOException {
        String older = "{\"backupId\":\"b1\",\"destination\":\"s3 x\",\"filter\":\"f\",\"rowsDone\":0,\"objects\":0,"
                + "\"bytes\":0,\"finished\":false,\"pass\":0,\"uploads\":[{\"bucket\":\"photos\",\"key\":\"a/b.tif\","
                + "\"uploadId\":\"0123abcd\"}]}";
        Restore.State s = Json.read(older.getBytes(StandardCharsets.UTF_8), Restore.State.class, "state");
        assertEquals(List.of(new PendingUpload("photos", "a/b.tif", "0123abcd", null)), s.uploads());
        assertFalse(s.uploads().get(0).isIntent());
    }
}
