package dev.cairn.service.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/cairn keys}: add prints the secret once, list never, rotate changes it, remove drops the key. */
class KeysCommandTest {
    @TempDir
    Path dir;

    private String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KeysCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {String.valueOf(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    private static String secretOf(String output) {
        return output.lines().filter(l -> l.startsWith("AWS_SECRET_ACCESS_KEY=")).findFirst().orElseThrow().substring(22);
    }

    @Test
    void managesTheKeyFile() throws Exception {
        String file = dir.resolve("keys").toString();
        String[] added = run("--file", file, "add", "read-only:images", "write-only:uploads", "--access-key", "WEBTIER");
        assertEquals("0", added[0], added[2]);
        String secret = secretOf(added[1]);
        assertEquals(40, secret.length());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(file))));
        String[] second = run("--file", file, "add", "metrics");
        assertEquals("0", second[0]);
        String[] list = run("--file", file, "list");
        assertTrue(list[1].contains("WEBTIER read-only:images write-only:uploads"), list[1]);
        assertFalse(list[1].contains(secret), "list never prints a secret");
        assertFalse(list[1].contains(secretOf(second[1])));
        String[] rotated = run("--file", file, "rotate", "WEBTIER");
        assertEquals("0", rotated[0]);
        String newSecret = secretOf(rotated[1]);
        assertFalse(newSecret.equals(secret));
        assertEquals(newSecret, KeyFile.read(Path.of(file), false).get(0).secret());
        assertEquals("1", run("--file", file, "add", "admin", "--access-key", "WEBTIER")[0], "ids are unique");
        assertEquals("1", run("--file", file, "add", "reader")[0]);
        assertEquals("0", run("--file", file, "remove", "WEBTIER")[0]);
        assertEquals(1, KeyFile.read(Path.of(file), false).size());
        assertEquals("1", run("--file", file, "remove", "WEBTIER")[0]);
        Files.setPosixFilePermissions(Path.of(file), PosixFilePermissions.fromString("rw-r--r--"));
        String[] open = run("--file", file, "list");
        assertEquals("1", open[0]);
        assertTrue(open[2].contains("chmod 600"), open[2]);
    }
}
