package dev.cairn.engine.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.row.SchemaCatalogue;
import dev.cairn.engine.row.SchemaCatalogueOptions;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A schema catalogue segment (schema ids and dictionary values that rows refer to). Any bytes in
 * its place: the catalogue opens or refuses with an IOException; an id it still knows maps to
 * what it was given for, never to other columns or another value.
 */
class CatalogueFuzzTest {
    private static final Path DIR = Path.of("/catalogue");
    private static final Map<Integer, List<String>> SCHEMAS = new HashMap<>();
    private static final Map<Integer, String> VALUES = new HashMap<>();
    private static final MemFileSystem IMAGE = build();
    private static final Path SEGMENT = firstSegment();

    static SchemaCatalogueOptions options(MemFileSystem fs) {
        return SchemaCatalogueOptions.builder(DIR).fileSystem(fs).segmentBytes(2048).build();
    }

    private static MemFileSystem build() {
        MemFileSystem fs = new MemFileSystem();
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs))) {
            for (int i = 0; i < 6; i++) {
                List<String> columns = List.of("col" + i, "etag", "size");
                SCHEMAS.put(catalogue.schemaIdFor("objects", columns), columns);
            }
            for (int i = 0; i < 8; i++) {
                String v = "image/type-" + i;
                VALUES.put(catalogue.valueIdFor("content-type", v.getBytes(StandardCharsets.UTF_8)), v);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return fs.crashClone();
    }

    private static Path firstSegment() {
        return DIR.resolve(IMAGE.list(DIR).stream().filter(n -> n.endsWith(".cat")).sorted().findFirst()
                .orElseThrow(() -> new IllegalStateException("no catalogue segment written")));
    }

    @FuzzTest(maxDuration = "10s")
    void openCatalogue(byte[] contents) throws IOException {
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
        SchemaCatalogue catalogue;
        try {
            catalogue = SchemaCatalogue.openReadOnly(options(copy));
        } catch (IOException refused) {
            return;
        }
        try (catalogue) {
            for (var schema : SCHEMAS.entrySet()) {
                List<String> columns = catalogue.columns(schema.getKey());
                if (columns != null && !columns.equals(schema.getValue())) {
                    throw new AssertionError("schema " + schema.getKey() + " reads as " + columns);
                }
            }
            for (var value : VALUES.entrySet()) {
                byte[] v = catalogue.value(value.getKey(), "content-type");
                if (v != null && !Arrays.equals(v, value.getValue().getBytes(StandardCharsets.UTF_8))) {
                    throw new AssertionError("value " + value.getKey() + " reads as " + new String(v, StandardCharsets.UTF_8));
                }
            }
        }
    }

    /** Writes the segment as a seed input: {@code CatalogueFuzzTest <resources dir>}. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]).resolve("dev/cairn/engine/fuzz/CatalogueFuzzTestInputs/openCatalogue");
        Files.createDirectories(dir);
        try (var reader = IMAGE.openRead(SEGMENT)) {
            Files.write(dir.resolve("written-by-the-catalogue"), reader.readFully(0, (int) reader.size()));
        }
        System.out.println("catalogue files: " + IMAGE.list(DIR));
    }
}
