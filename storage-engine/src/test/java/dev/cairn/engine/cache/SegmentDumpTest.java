package dev.cairn.engine.cache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.fs.FileCorruptor;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SegmentDumpTest {

    @Test
    void printsEntriesAndWhereTheScanStopped() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Path dir = Path.of("/cache");
        try (SsdCache cache = SsdCache.open(SsdCacheOptions.builder(dir).fileSystem(fs).segmentBytes(16 << 10)
                .capacityBytes(1 << 20).admission(SsdAdmission.ALWAYS).gcExecutor(Runnable::run).build())) {
            cache.put("alpha".getBytes(StandardCharsets.UTF_8), new byte[10]);
            cache.put(new byte[] {0, 1, '"'}, new byte[3]);
        }
        Path segment = dir.resolve(CacheSegment.fileName(1));
        FileCorruptor.truncate(fs, segment, fs.size(segment) - 1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SegmentDump.dump(fs, segment, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        assertTrue(text.contains("segment 1, target 16384 bytes"), text);
        assertTrue(text.contains("key \"alpha\"  value 10 bytes"), text);
        assertTrue(text.contains("1 intact entries"), text);
        assertTrue(text.contains("scan stopped at offset 59"), text);
    }
}
