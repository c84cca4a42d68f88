package dev.cairn.engine.vlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileCorruptor;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.util.Checksums;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ValueFileDumpTest {

    private final Path dir = Path.of("/v");
    private final Path file = dir.resolve("000012.vlog");
    private MemFileSystem fs;

    @BeforeEach
    void setUp() throws IOException {
        fs = new MemFileSystem();
        fs.createDirectories(dir);
        try (ValueFileWriter writer = ValueFileWriter.create(fs, dir, 12, WriteLifetime.LONG)) {
            writer.append("photos/cat.jpg".getBytes(StandardCharsets.US_ASCII), new byte[] {1, 2, 3});
            writer.append(new byte[] {0, 1, (byte) 0xFF}, new byte[5]);
            writer.sync();
        }
    }

    private String dump() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ValueFileDump.dump(fs, file, out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void listsHeaderAndRecords() throws IOException {
        String expected = String.join(System.lineSeparator(),
                "value file /v/000012.vlog",
                "header: magic CAIRNVLG, format version 1, file size 65 bytes",
                String.format("record at 16: key \"photos/cat.jpg\" (14 bytes), value at 42, 3 bytes, crc32c %08x ok",
                        Checksums.crc32c(new byte[] {1, 2, 3})),
                String.format("record at 45: key 0x0001ff (3 bytes), value at 60, 5 bytes, crc32c %08x ok",
                        Checksums.crc32c(new byte[5])),
                "2 records, 8 value bytes, valid length 65 of 65 bytes",
                "");
        assertEquals(expected, dump());
    }

    @Test
    void reportsATornTail() throws IOException {
        FileCorruptor.truncate(fs, file, 60);
        String listing = dump();
        assertTrue(listing.contains("1 records, 3 value bytes, valid length 45 of 60 bytes"), listing);
        assertTrue(listing.contains("torn tail: 15 bytes after offset 45 ignored"), listing);
    }

    @Test
    void printsRecordsBeforeDamageThenThrows() throws IOException {
        FileCorruptor.flipBit(fs, file, 30, 0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertThrows(CorruptionException.class, () -> ValueFileDump.dump(fs, file, out));
        String listing = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(listing.contains("CORRUPT after 0 records: value file /v/000012.vlog: record at offset 16"),
                listing);
    }
}
