package dev.cairn.backup;

import dev.cairn.backup.cli.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged manifest (truncated, a flipped byte, a length or a bucket setting out of range, a
 * null where a name must be, an empty file) gives one clear line naming the manifest, for each
 * command that reads it, and never a generic crash: exit 1, no stack trace, nothing restored.
 */
class CorruptManifestTest {
    @TempDir
    Path dir;
    private EmbeddedStoreDir source;
    private DirectoryTarget target;
    private Path manifest;
    private byte[] good;

    @BeforeEach
    void backUp() throws IOException {
        source = EmbeddedStoreDir.open(dir.resolve("source"));
        source.store().createBucket("photos", BucketAcl.PUBLIC_READ);
        for (int i = 0; i < 30; i++) {
            Seed.put(source.store(), "photos", "img/k" + i, Seed.bytes(100 + i * 37, i), Seed.attributes(i));
        }
        target = new DirectoryTarget(dir.resolve("archive"));
        assertEquals(0, run("run", "--source", "embedded", "--target", "dir:" + target.root()).exit);
        String id = Catalog.latest(target).id();
        manifest = target.root().resolve(ArchiveLayout.manifest(id));
        good = Files.readAllBytes(manifest);
    }

    @AfterEach
    void close() throws IOException {
        source.close();
    }

    private record Outcome(int exit, String err) {
    }

    private Outcome run(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8);
        System.setErr(capture);
        try {
            var cl = Main.commandLine(options -> new ObjectStoreSource(source.store(), "test store", 50, null));
            cl.setErr(new PrintWriter(capture, true));
            int exit = cl.execute(args);
            return new Outcome(exit, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(savedErr);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new AssertionError("not found: " + new String(needle, StandardCharsets.UTF_8));
    }

    /** The 4-byte length in front of the first occurrence of {@code text}. */
    private static UnaryOperator<byte[]> lengthBefore(String text, int value) {
        return b -> {
            int at = indexOf(b, text.getBytes(StandardCharsets.UTF_8)) - 4;
            b[at] = (byte) (value >>> 24);
            b[at + 1] = (byte) (value >>> 16);
            b[at + 2] = (byte) (value >>> 8);
            b[at + 3] = (byte) value;
            return b;
        };
    }

    private void damageThenExpectClearErrors(String what, UnaryOperator<byte[]> damage) throws IOException {
        Files.write(manifest, damage.apply(good.clone()));
        Path into = dir.resolve("restored-" + what.replace(' ', '-'));
        for (List<String> args : List.of(
                List.of("restore", "--target", "dir:" + target.root(), "--backup", Catalog.backups(target).get(0).id(),
                        "--into", "embedded:" + into),
                List.of("verify", "--target", "dir:" + target.root()),
                List.of("dump", manifest.toString()))) {
            Outcome o = run(args.toArray(String[]::new));
            String context = what + ", " + args.get(0) + ": " + o.err;
            assertEquals(ExitCode.FAILED, o.exit, context);
            assertTrue(o.err.contains(manifest.getFileName().toString()), "names the manifest: " + context);
            assertTrue(o.err.contains("manifest"), context);
            assertFalse(o.err.contains("\tat "), "no stack trace: " + context);
            assertFalse(o.err.contains("Exception"), "no exception class name: " + context);
        }
        if (Files.exists(into)) {
            try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(into)) {
                assertTrue(restored.store().listBuckets().isEmpty(), what + ": nothing restored");
            }
        }
        Outcome list = run("list", "--target", "dir:" + target.root());
        assertFalse(list.err.contains("\tat "), what + ", list: " + list.err);
    }

    @Test
    void truncated() throws IOException {
        damageThenExpectClearErrors("truncated", b -> Arrays.copyOf(b, b.length / 2));
    }

    @Test
    void empty() throws IOException {
        damageThenExpectClearErrors("empty", b -> new byte[0]);
    }

    @Test
    void aFlippedByteInARow() throws IOException {
        damageThenExpectClearErrors("flipped byte", b -> {
            int at = indexOf(b, "img/k17".getBytes(StandardCharsets.UTF_8)) + 5;
            b[at] ^= 0x01;
            return b;
        });
    }

    @Test
    void aHugeKeyLength() throws IOException {
        damageThenExpectClearErrors("huge length", lengthBefore("img/k3", 60 << 20));
    }

    @Test
    void aNegativeKeyLength() throws IOException {
        damageThenExpectClearErrors("negative length", lengthBefore("img/k3", -7));
    }

    @Test
    void aNullKey() throws IOException {
        damageThenExpectClearErrors("null key", lengthBefore("img/k3", -1));
    }

    @Test
    void anUnknownBucketAcl() throws IOException {
        damageThenExpectClearErrors("bad acl", b -> {
            int at = indexOf(b, "photos".getBytes(StandardCharsets.UTF_8)) + "photos".length() + 8;
            b[at] = 9;
            return b;
        });
    }
}
