package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.config.InvalidSettingException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A credentials file without a key pair is a refused setting, reported as such at the start. */
class CredentialsTest {
    @TempDir
    Path dir;

    @Test
    void aCredentialsFileWithoutAKeyIsARefusedSetting() throws Exception {
        CairnProperties props = new CairnProperties();
        props.setDataDir(dir.resolve("data"));
        Path file = Files.writeString(dir.resolve("credentials.properties"), "# no keys yet\n");
        props.getAuth().setCredentialsFile(file);
        InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> Credentials.load(props));
        assertTrue(e.getMessage().startsWith("invalid setting: cairn.auth.credentials-file " + file), e.getMessage());
    }
}
