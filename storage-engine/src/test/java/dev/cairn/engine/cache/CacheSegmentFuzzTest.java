package dev.cairn.engine.cache;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.tool.Dumper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * An SSD row-cache segment, rebuilt into the hash index when the cache opens. Any bytes in its
 * place: the cache opens (dropping what it cannot trust) or refuses with an IOException; a get
 * returns the value cached under that key or nothing, never another value.
 */
class CacheSegmentFuzzTest {
    private static final Path DIR = Path.of("/cache");
    private static final int ENTRIES = 24;
    private static final MemFileSystem IMAGE = build();
    private static final Path SEGMENT = firstSegment();

    static SsdCacheOptions options(MemFileSystem fs) {
        return SsdCacheOptions.builder(DIR).fileSystem(fs).segmentBytes(4096).capacityBytes(64 << 10)
                .writeBufferBytes(512).admission(SsdAdmission.ALWAYS).gcExecutor(Runnable::run).build();
    }

    static byte[] key(int i) {
        return ("row-" + i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int i) {
        byte[] v = new byte[20 + 13 * i];
        Arrays.fill(v, (byte) ('A' + i));
        return v;
    }

    private static MemFileSystem build() {
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs))) {
            for (int i = 0; i < ENTRIES; i++) {
                cache.put(key(i), value(i));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return fs.crashClone();
    }

    private static Path firstSegment() {
        return DIR.resolve(IMAGE.list(DIR).stream().filter(n -> n.endsWith(".seg")).sorted().findFirst()
                .orElseThrow(() -> new IllegalStateException("no segment written")));
    }

    @FuzzTest(maxDuration = "10s")
    void rebuildIndex(byte[] contents) throws IOException {
        MemFileSystem copy = IMAGE.crashClone();
        try (WritableFile out = copy.create(SEGMENT, WriteLifetime.MEDIUM)) {
            out.append(ByteBuffer.wrap(contents));
            out.sync();
        }
        try {
            Dumper.dump(copy, SEGMENT, new PrintStream(OutputStream.nullOutputStream()));
        } catch (IOException refused) {
            // Refused with a message: fine.
        }
        SsdCache cache;
        try {
            cache = SsdCache.open(options(copy));
        } catch (IOException refused) {
            return;
        }
        try (cache) {
            for (int i = 0; i < ENTRIES + 4; i++) {
                byte[] got = cache.get(key(i));
                if (got != null && (i >= ENTRIES || !Arrays.equals(value(i), got))) {
                    throw new AssertionError("wrong cached value for row-" + i + ": " + got.length + " bytes");
                }
            }
        }
    }

    /** Writes the segment as a seed input: {@code CacheSegmentFuzzTest <resources dir>}. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]).resolve("dev/cairn/engine/cache/CacheSegmentFuzzTestInputs/rebuildIndex");
        Files.createDirectories(dir);
        try (var reader = IMAGE.openRead(SEGMENT)) {
            Files.write(dir.resolve("written-by-the-cache"), reader.readFully(0, (int) reader.size()));
        }
        System.out.println("cache files: " + IMAGE.list(DIR));
    }
}
