package dev.cairn.engine.fuzz;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.Table;
import dev.cairn.engine.WriteBatch;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A small engine directory, written once by the real engine into memory, whose files the engine
 * fuzz harnesses replace one at a time with fuzzed bytes before opening the engine again. It
 * holds a flushed SSTable, a value file, a manifest and a commit log with writes not yet
 * flushed (overwrites, deletes, values in the value file), and it remembers every value ever
 * written under each key: whatever a damaged directory reads back must be one of them, or
 * nothing.
 */
public final class EngineImage {
    static final Path DIR = Path.of("/db");
    static final String TABLE = "objects";
    private static final PrintStream DISCARD = new PrintStream(OutputStream.nullOutputStream());

    private static final EngineImage INSTANCE = build();

    private final MemFileSystem fs;
    private final Map<String, Set<String>> written;

    private EngineImage(MemFileSystem fs, Map<String, Set<String>> written) {
        this.fs = fs;
        this.written = written;
    }

    public static EngineImage get() {
        return INSTANCE;
    }

    static EngineOptions options(MemFileSystem fs) {
        return EngineOptions.builder(DIR).fileSystem(fs).memtableBytes(64 << 10).valueThreshold(100)
                .blockBytes(512).valueFileBytes(64 << 10).rowCacheBytes(0).build();
    }

    private static EngineImage build() {
        MemFileSystem fs = new MemFileSystem();
        Map<String, Set<String>> written = new HashMap<>();
        try (Engine engine = Engine.open(options(fs))) {
            Table t = engine.table(TABLE);
            for (int i = 0; i < 24; i++) {
                put(t, written, key(i), value(i, 0));
            }
            engine.flush();
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < 24; i += 3) {
                batch.put(t, key(i).getBytes(StandardCharsets.UTF_8), value(i, 1).getBytes(StandardCharsets.UTF_8));
                written.computeIfAbsent(key(i), k -> new HashSet<>()).add(value(i, 1));
            }
            engine.write(batch);
            for (int i = 1; i < 24; i += 4) {
                t.delete(key(i).getBytes(StandardCharsets.UTF_8));
            }
            for (int i = 24; i < 30; i++) {
                put(t, written, key(i), value(i, 2));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new EngineImage(fs.crashClone(), written);
    }

    private static void put(Table t, Map<String, Set<String>> written, String key, String value) throws IOException {
        t.put(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        written.computeIfAbsent(key, k -> new HashSet<>()).add(value);
    }

    static String key(int i) {
        return "key-" + (i * 7919 % 1000);
    }

    /** Small values stay in the log and the SSTable; every fourth goes to the value file. */
    static String value(int i, int version) {
        String v = "v" + version + "-" + i + "-";
        int length = i % 4 == 0 ? 180 + i : 10 + i;
        StringBuilder b = new StringBuilder(v);
        while (b.length() < length) {
            b.append((char) ('a' + (b.length() + i) % 26));
        }
        return b.toString();
    }

    /** The newest file of the image whose name passes {@code test} (the live one: names carry numbers). */
    public Path file(Predicate<String> test) {
        return DIR.resolve(fs.list(DIR).stream().filter(test).max(String::compareTo)
                .orElseThrow(() -> new IllegalStateException("no such file in " + fs.list(DIR))));
    }

    public byte[] bytes(Path file) throws IOException {
        try (var reader = fs.openRead(file)) {
            return reader.readFully(0, (int) reader.size());
        }
    }

    /** A copy of the image with {@code file} holding {@code contents}. */
    public MemFileSystem withFile(Path file, byte[] contents) throws IOException {
        MemFileSystem copy = fs.crashClone();
        try (WritableFile out = copy.create(file, WriteLifetime.MEDIUM)) {
            out.append(ByteBuffer.wrap(contents));
            out.sync();
        }
        copy.syncDirectory(file.getParent());
        return copy;
    }

    /**
     * Dumps the file, opens the engine over the copy and reads every key by scan and by get. Any
     * failure must be an {@link IOException}; anything read must be a value once written under
     * that key.
     */
    public void openAndReadAll(MemFileSystem copy, Path file) {
        openAndReadAll(copy, file, true);
    }

    /**
     * As {@link #openAndReadAll(MemFileSystem, Path)}; {@code checkValues} false for files whose
     * checksums the harness made valid, which may then hold any data.
     */
    public void openAndReadAll(MemFileSystem copy, Path file, boolean checkValues) {
        try {
            Dumper.dump(copy, file, DISCARD);
        } catch (IOException expected) {
            // A damaged file is refused by the dump with a message; it is not a finding.
        }
        Engine engine;
        try {
            engine = Engine.open(options(copy).toBuilder().createIfMissing(false).build());
        } catch (IOException refused) {
            return;
        }
        try (engine) {
            Table t = engine.table(TABLE);
            try (EntryIterator it = t.scan(KeyRange.all())) {
                while (it.hasNext()) {
                    Entry e = it.next();
                    if (checkValues) {
                        check(new String(e.key(), StandardCharsets.UTF_8), e.value());
                    }
                }
            } catch (UncheckedIOException refused) {
                // An error, not data: fine.
            }
            for (String key : written.keySet()) {
                try {
                    byte[] v = t.get(key.getBytes(StandardCharsets.UTF_8));
                    if (v != null && checkValues) {
                        check(key, v);
                    }
                } catch (IOException refused) {
                    // An error, not data: fine.
                }
            }
        } catch (IOException closing) {
            // Closing may report the damage too.
        }
    }

    private void check(String key, byte[] value) {
        Set<String> values = written.get(key);
        if (values == null) {
            throw new AssertionError("a key never written came back: " + key);
        }
        String read = new String(value, StandardCharsets.UTF_8);
        if (!values.contains(read)) {
            throw new AssertionError("wrong data under " + key + ": " + read + " (written: " + values + ")");
        }
    }

    /** Writes the image's files as seed inputs: {@code EngineImage <resources dir>}. */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]).resolve("dev/cairn/engine/fuzz");
        EngineImage image = get();
        Map<String, Predicate<String>> kinds = new HashMap<>();
        kinds.put("SSTableFuzzTestInputs/openTable", n -> n.endsWith(".sst"));
        kinds.put("ValueFileFuzzTestInputs/openValueFile", n -> n.endsWith(".vlog"));
        kinds.put("ManifestFuzzTestInputs/openManifest", n -> n.startsWith("MANIFEST-"));
        kinds.put("CommitLogFuzzTestInputs/recoverLog", n -> n.endsWith(".log"));
        for (var kind : kinds.entrySet()) {
            Path dir = root.resolve(kind.getKey());
            Files.createDirectories(dir);
            Files.write(dir.resolve("written-by-the-engine"), image.bytes(image.file(kind.getValue())));
        }
        List<String> names = new ArrayList<>(image.fs.list(DIR));
        names.sort(null);
        System.out.println("image: " + names + " " + Arrays.toString(names.toArray()));
    }
}
