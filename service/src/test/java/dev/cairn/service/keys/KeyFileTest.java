package dev.cairn.service.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key file's format, its permission check, and what each role allows. */
class KeyFileTest {
    @TempDir
    Path dir;

    @Test
    void parsesKeysWithRolesPerBucket() {
        List<AccessKey> keys = KeyFile.parse("""
                # comment

                WEB web-secret-0000 read-only:images read-only:thumbs
                APP\tapp-secret-0000   write-only:images
                OPS ops-secret-00000 admin
                PROM prom-secret-0000 metrics
                """, "keys");
        assertEquals(4, keys.size());
        AccessKey web = keys.get(0);
        assertTrue(web.allows(Access.READ, "images"));
        assertTrue(web.allows(Access.READ, "thumbs"));
        assertFalse(web.allows(Access.READ, "other"));
        assertFalse(web.allows(Access.WRITE, "images"));
        assertFalse(web.allows(Access.READ, null), "a bucket grant is not a grant on all buckets");
        AccessKey app = keys.get(1);
        assertTrue(app.allows(Access.WRITE, "images"));
        assertFalse(app.allows(Access.READ, "images"));
        assertTrue(app.sees("images"));
        assertFalse(app.sees("thumbs"));
        AccessKey ops = keys.get(2);
        for (Access a : Access.values()) {
            assertTrue(ops.allows(a, "any"));
            assertTrue(ops.allows(a, null));
        }
        AccessKey prom = keys.get(3);
        assertTrue(prom.allows(Access.METRICS, null));
        assertFalse(prom.allows(Access.READ, "images"));
        assertFalse(prom.sees("images"));
    }

    @Test
    void badLinesNameTheLineAndNeverTheSecret() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KeyFile.parse("OKAY ok-secret-00000 admin\nBAD topsecret-value reader\n", "keys"));
        assertTrue(e.getMessage().contains("keys, line 2"), e.getMessage());
        assertTrue(e.getMessage().contains("unknown role 'reader'"), e.getMessage());
        assertFalse(e.getMessage().contains("topsecret"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KeyFile.parse("A a-secret-0000 metrics:images\n", "k"));
        assertThrows(IllegalArgumentException.class, () -> KeyFile.parse("A short admin\n", "k"));
        assertThrows(IllegalArgumentException.class, () -> KeyFile.parse("A a-secret-0000\n", "k"));
        assertThrows(IllegalArgumentException.class,
                () -> KeyFile.parse("A a-secret-0000 admin\nA b-secret-0000 admin\n", "k"));
    }

    @Test
    void aFileOthersCanReadIsRefused() throws Exception {
        Path file = dir.resolve("keys");
        KeyFile.write(file, List.of(new AccessKey("ABC", "abc-secret-000", List.of(new Grant(Role.ADMIN, null)))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(1, KeyFile.read(file, false).size());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyFile.read(file, false));
        assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
        assertEquals(1, KeyFile.read(file, true).size(), "group-readable when allowed (Kubernetes fsGroup)");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThrows(IllegalArgumentException.class, () -> KeyFile.read(file, true));
        assertThrows(IllegalArgumentException.class, () -> KeyFile.read(dir.resolve("absent"), false));
    }

    @Test
    void theRingRefusesABadReloadAndKeepsItsKeys() throws Exception {
        Path file = dir.resolve("keys");
        KeyFile.write(file, List.of(new AccessKey("ONE", "one-secret-000", List.of(new Grant(Role.READ_ONLY, null)))));
        try (KeyRing ring = new KeyRing(List.of(new AccessKey("FIXED", "f", List.of(new Grant(Role.ADMIN, null)))),
                file, false)) {
            assertEquals("one-secret-000", ring.secretKey("ONE").orElseThrow());
            assertTrue(ring.allows("FIXED", Access.MANAGE, "x"));
            Files.writeString(file, "ONE one-secret-000 read-only\nTWO broken\n");
            assertFalse(ring.reloadIfChanged());
            assertEquals(2, ring.size());
            KeyFile.write(file, List.of(new AccessKey("TWO", "two-secret-000", List.of(new Grant(Role.WRITE_ONLY, "b")))));
            assertTrue(ring.reloadIfChanged());
            assertTrue(ring.secretKey("ONE").isEmpty());
            assertTrue(ring.allows("TWO", Access.WRITE, "b"));
            KeyFile.write(file, List.of(new AccessKey("FIXED", "two-secret-000", List.of(new Grant(Role.READ_ONLY, null)))));
            assertFalse(ring.reloadIfChanged(), "a key both fixed and in the file is refused");
            assertTrue(ring.allows("FIXED", Access.MANAGE, "x"));
        }
    }

    @Test
    void aRewriteOfTheSameLengthAndTimeIsNoticed() throws Exception {
        Path file = dir.resolve("keys");
        KeyFile.write(file, List.of(new AccessKey("ONE", "one-secret-000", List.of(new Grant(Role.READ_ONLY, null)))));
        FileTime written = Files.getLastModifiedTime(file);
        try (KeyRing ring = new KeyRing(List.of(), file, false)) {
            assertFalse(ring.reloadIfChanged());
            String rotated = Files.readString(file).replace("one-secret-000", "one-secret-111");
            Files.writeString(file, rotated, StandardOpenOption.TRUNCATE_EXISTING);
            Files.setLastModifiedTime(file, written);
            assertTrue(ring.reloadIfChanged(), "same inode, size and time, other bytes");
            assertEquals("one-secret-111", ring.secretKey("ONE").orElseThrow());
            assertFalse(ring.reloadIfChanged());
        }
    }
}
