package dev.cairn.service.keys;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.StandaloneService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/** The service refuses to start with a key file others can read, or one that does not parse, and says why. */
class KeyFileStartupTest {
    @TempDir
    Path tmp;

    private void assertRefused(String content, String mode, String expected) throws Exception {
        Path keys = tmp.resolve("keys");
        Files.writeString(keys, content);
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString(mode));
        Throwable e = assertThrows(Throwable.class, () -> {
            ConfigurableApplicationContext ctx = StandaloneService.start(tmp.resolve("data"),
                    Map.of("cairn.auth.keys-file", keys.toString()));
            ctx.close();
        });
        StringBuilder messages = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause()) {
            messages.append(c).append('\n');
        }
        assertTrue(messages.toString().contains(expected), () -> "expected '" + expected + "' in:\n" + messages);
        assertTrue(!messages.toString().contains("s3cr3t-value"), "no secret in the message");
    }

    @Test
    void aWorldReadableKeyFileStopsTheStart() throws Exception {
        assertRefused("ADMIN1 s3cr3t-value admin\n", "rw-r--r--", "must be readable by its owner only (chmod 600");
    }

    @Test
    void aKeyFileThatDoesNotParseStopsTheStart() throws Exception {
        assertRefused("ADMIN1 s3cr3t-value superuser\n", "rw-------", "line 1: unknown role 'superuser'");
    }
}
