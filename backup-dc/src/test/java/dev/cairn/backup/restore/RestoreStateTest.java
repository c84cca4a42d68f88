package dev.cairn.backup.restore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cairn.backup.run.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

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
                        PendingUpload.intent("photos", "c.tif")));
        assertEquals(s, Json.read(Json.write(s), Restore.State.class, "state"));
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
