package dev.cairn.backup.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OneNullVersionTest {

    private static byte[] place(int n) {
        byte[] p = new byte[12];
        p[0] = 0x7f;
        p[11] = (byte) n;
        return p;
    }

    /** A delete marker row: enough to carry bucket, key, version id and place. */
    private static BackupRow row(String key, String versionId, Integer place) {
        return BackupRow.ofVersion("b", new VersionRecord(ObjectVersion.marker(key, versionId, 1, false),
                place == null ? null : place(place)));
    }

    private static String name(BackupRow r) {
        return r.key() + " " + r.version().version().versionId() + " " + (r.order() == null ? "-" : r.order()[11]);
    }

    private static List<String> filter(BackupRow... rows) throws IOException {
        List<String> out = new ArrayList<>();
        OneNullVersion f = new OneNullVersion(r -> out.add(name(r)));
        for (BackupRow r : rows) {
            f.accept(r);
        }
        f.finish();
        return out;
    }

    @Test
    void theUnplacedNullVersionGivesWayToAPlacedOneOfItsKey() throws IOException {
        String id = VersionId.encode(place(1));
        assertEquals(List.of("a " + id + " 1", "a null 2", "b null -"), filter(
                row("a", VersionId.NULL, null), row("a", id, 1), row("a", VersionId.NULL, 2), row("b", VersionId.NULL, null)));
    }

    @Test
    void anUnplacedNullVersionAloneIsKeptWithTheRowsAfterIt() throws IOException {
        String id = VersionId.encode(place(3));
        assertEquals(List.of("a null -", "a " + id + " 3", "b null 4"), filter(
                row("a", VersionId.NULL, null), row("a", id, 3), row("b", VersionId.NULL, 4)));
        assertEquals(List.of("a null -", "a " + id + " 3"), filter(row("a", VersionId.NULL, null), row("a", id, 3)));
        assertEquals(List.of(), filter());
    }
}
