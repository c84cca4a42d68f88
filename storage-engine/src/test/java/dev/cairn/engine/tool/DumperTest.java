package dev.cairn.engine.tool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.Table;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DumperTest {
    @TempDir
    Path dir;

    @Test
    void dumpsEveryFileKindOfAnEngineDirectory() throws Exception {
        try (Engine e = Engine.open(EngineOptions.builder(dir).valueThreshold(100).build())) {
            Table t = e.table("objects");
            t.put("img/1.jpg".getBytes(), new byte[500]);
            t.put("small".getBytes(), "x".getBytes());
            t.putRow("row".getBytes(), dev.cairn.engine.Row.builder().inline("etag", new byte[16]).build());
            e.flush();
            t.put("img/2.jpg".getBytes(), new byte[700]);
            t.delete("small".getBytes());
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Dumper.dump(new LocalFileSystem(), dir, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        for (String expected : new String[] {"CURRENT -> MANIFEST-", "table 1 = objects", "L0 ", "value file",
                "'img/1.jpg'", "CAIRNVLG", "DELETE", "etag"}) {
            assertTrue(text.contains(expected), "dump lacks '" + expected + "':\n" + text);
        }
    }
}
