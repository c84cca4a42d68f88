package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SSTableDumpTest {
    private final FileSystem fs = new LocalFileSystem();

    @TempDir
    Path dir;

    @Test
    void printsFooterPropertiesIndexAndEveryEntry() throws IOException {
        NavigableMap<byte[], byte[]> entries = new TreeMap<>(InternalKeys.COMPARATOR);
        entries.put(key(3, "alpha", 12, InternalKeys.KIND_DELETE), new byte[0]);
        entries.put(key(3, "alpha", 11), new byte[17]);
        entries.put(key(3, "beta", 9, InternalKeys.KIND_VALUE_POINTER), new byte[20]);
        for (int i = 0; i < 200; i++) {
            entries.put(denseKey(i), denseValue(i));
        }
        Path path = dir.resolve("dump.sst");
        write(fs, path, entries, SSTableOptions.builder().blockBytes(512).build());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SSTableDump.dump(fs, path, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);

        assertTrue(out.contains("format version 1"), out);
        assertTrue(out.contains("entries              203"), out);
        assertTrue(out.contains("deletions            1"), out);
        assertTrue(out.contains("filter: "), out);
        assertTrue(out.contains("index:\n  block 0 [offset 0, size "), out);
        String alpha = HexFormat.of().formatHex("alpha".getBytes());
        assertTrue(out.contains("table=3 user=" + alpha + " seq=12 kind=DELETE value 0 bytes"), out);
        assertTrue(out.contains("table=3 user=" + alpha + " seq=11 kind=VALUE value 17 bytes"), out);
        assertTrue(out.contains("seq=9 kind=VALUE_POINTER value 20 bytes"), out);
        assertTrue(out.contains(HexFormat.of().formatHex(denseKey(199))), out);
        assertTrue(out.endsWith("ok: 203 entries, all checksums verified" + System.lineSeparator()), out);
        assertEquals(203, out.lines().filter(l -> l.contains(" value ") && l.endsWith(" bytes")).count());
    }
}
