package dev.cairn.engine.row;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.ColumnValue;
import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Row;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowCodecTest {

    /** A row of every column type; short byte values repeat, so the dictionary is used. */
    static Row randomRow(Random random) {
        Row.Builder b = Row.builder();
        int columns = random.nextInt(12);
        for (int i = 0; i < columns; i++) {
            String name = "c" + random.nextInt(30) + (random.nextInt(5) == 0 ? "-ünï" : "");
            switch (random.nextInt(5)) {
                case 0 -> {
                    byte[] pointer = new byte[ColumnValue.SEPARATED_POINTER_BYTES];
                    random.nextBytes(pointer);
                    b.separated(name, pointer);
                }
                case 1 -> b.uint(name, random.nextBoolean() ? random.nextInt(1000) : random.nextLong());
                case 2 -> {
                    byte[] value = new byte[1 + random.nextInt(random.nextBoolean() ? 3 : 40)];
                    random.nextBytes(value);
                    b.fixed(name, value);
                }
                case 3 -> b.text(name, "v" + random.nextInt(20));
                default -> {
                    byte[] value = new byte[random.nextInt(random.nextBoolean() ? 10 : 300)];
                    random.nextBytes(value);
                    b.inline(name, value);
                }
            }
        }
        return b.build();
    }

    /** A row the untyped forms (0x01, 0x02) can hold: inline bytes and pointers. */
    static Row randomUntypedRow(Random random) {
        Row.Builder b = Row.builder();
        int columns = random.nextInt(12);
        for (int i = 0; i < columns; i++) {
            String name = "c" + random.nextInt(30) + (random.nextInt(5) == 0 ? "-ünï" : "");
            if (random.nextInt(4) == 0) {
                byte[] pointer = new byte[ColumnValue.SEPARATED_POINTER_BYTES];
                random.nextBytes(pointer);
                b.separated(name, pointer);
            } else {
                byte[] value = new byte[random.nextInt(random.nextBoolean() ? 10 : 300)];
                random.nextBytes(value);
                b.inline(name, value);
            }
        }
        return b.build();
    }

    static SchemaCatalogue memoryCatalogue() throws IOException {
        return SchemaCatalogue.open(SchemaCatalogueOptions.builder(Path.of("/catalogue"))
                .fileSystem(new MemFileSystem()).maxNewSchemasPerTable(100_000).maxValuesPerColumn(8)
                .build());
    }

    @Test
    void typedFormsRoundTripThroughTheCatalogue() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("RowCodecTest typed seed " + seed);
        Random random = new Random(seed);
        int dictionaryCells = 0;
        try (SchemaCatalogue catalogue = memoryCatalogue()) {
            for (int i = 0; i < 2000; i++) {
                Row row = randomRow(random);
                byte[] catalogued = RowCodec.encode("t", row, catalogue);
                byte[] selfDescribing = RowCodec.encodeSelfDescribing(row);
                assertEquals(RowCodec.FORMAT_TYPED_CATALOGUED, catalogued[0]);
                assertEquals(RowCodec.FORMAT_TYPED_SELF_DESCRIBING, selfDescribing[0]);
                assertEquals(row, RowCodec.decode(catalogued, catalogue), "seed " + seed);
                assertEquals(row, RowCodec.decode(selfDescribing, x -> null), "seed " + seed);
                assertEquals(SchemaCatalogue.NO_SCHEMA, RowCodec.schemaId(selfDescribing));
                assertEquals(row.columnNames(), columnNames(catalogue.typedColumns(RowCodec.schemaId(catalogued))));
                assertTrue(catalogued.length <= selfDescribing.length + 5);
                for (ColumnValue v : row.asMap().values()) {
                    if (v.type() == ColumnValue.Type.BYTES && v.length() <= 3) {
                        dictionaryCells++;
                    }
                }
            }
            assertTrue(catalogue.valueCount() > 0 && catalogue.valueCount() <= 8 * 60, "seed " + seed);
            assertTrue(dictionaryCells > 100, "seed " + seed);
        }
    }

    @Test
    void theDictionaryShrinksRepeatedValuesAndCapsEachColumn() throws IOException {
        try (SchemaCatalogue catalogue = memoryCatalogue()) {
            Row first = Row.builder().text("content-type", "image/jpeg").build();
            byte[] encoded = RowCodec.encode("objects", first, catalogue);
            assertEquals(3, encoded.length, "format, schema id, one dictionary cell");
            for (int i = 0; i < 20; i++) {
                RowCodec.encode("objects", Row.builder().text("content-type", "type/" + i).build(), catalogue);
            }
            assertEquals(8, catalogue.valueCount(), "the column's cap");
            Row late = Row.builder().text("content-type", "type/19").build();
            byte[] inline = RowCodec.encode("objects", late, catalogue);
            assertEquals(2 + 1 + "type/19".length(), inline.length, "past the cap, values are written inline");
            assertEquals(late, RowCodec.decode(inline, catalogue));
            assertEquals(first, RowCodec.decode(encoded, catalogue));
        }
    }

    @Test
    void aDictionaryIdOfAnotherColumnIsCorruption() throws IOException {
        try (SchemaCatalogue catalogue = memoryCatalogue()) {
            byte[] a = RowCodec.encode("t", Row.builder().text("a", "x").build(), catalogue);
            byte[] b = RowCodec.encode("t", Row.builder().text("b", "y").build(), catalogue);
            byte[] forged = a.clone();
            forged[2] = b[2];
            CorruptionException e = assertThrows(CorruptionException.class, () -> RowCodec.decode(forged, catalogue));
            assertTrue(e.getMessage().contains("dictionary id"), e.getMessage());
        }
    }

    private static List<String> columnNames(List<ColumnSpec> specs) {
        return specs.stream().map(ColumnSpec::name).toList();
    }

    @Test
    void untypedFormsStayReadable() throws CorruptionException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("RowCodecTest seed " + seed);
        Random random = new Random(seed);
        Map<Integer, List<String>> schemas = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            Row row = randomUntypedRow(random);
            int id = 1 + random.nextInt(1000);
            schemas.put(id, row.columnNames());
            byte[] catalogued = UntypedRows.catalogued(id, row);
            byte[] selfDescribing = UntypedRows.selfDescribing(row);
            assertEquals(row, RowCodec.decode(catalogued, schemas::get), "seed " + seed);
            assertEquals(row, RowCodec.decode(selfDescribing, x -> null), "seed " + seed);
            assertEquals(id, RowCodec.schemaId(catalogued));
            assertEquals(SchemaCatalogue.NO_SCHEMA, RowCodec.schemaId(selfDescribing));
            assertTrue(catalogued.length <= selfDescribing.length + 5);
        }
    }

    @Test
    void projectionSkipsUnwantedColumns() throws CorruptionException {
        Row row = Row.builder().inline("a", new byte[] {1}).inline("b", new byte[100])
                .separated("c", new byte[20]).build();
        byte[] encoded = UntypedRows.catalogued(7, row);
        Row onlyC = RowCodec.decode(encoded, id -> row.columnNames(), Set.of("c")::contains);
        assertEquals(List.of("c"), onlyC.columnNames());
        assertTrue(onlyC.get("c").isSeparated());
    }

    @Test
    void malformedRowsFailWithCorruptionNeverAnotherException() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("RowCodecTest fuzz seed " + seed);
        Random random = new Random(seed);
        Map<Integer, List<String>> untyped = new HashMap<>();
        SchemaCatalogue catalogue = memoryCatalogue();
        SchemaLookup schemas = new SchemaLookup() {
            @Override
            public List<String> columns(int id) {
                return untyped.get(id);
            }

            @Override
            public List<ColumnSpec> typedColumns(int id) {
                return catalogue.typedColumns(id);
            }

            @Override
            public byte[] value(int id, String column) {
                return catalogue.value(id, column);
            }
        };
        int corrupt = 0;
        for (int i = 0; i < 5000; i++) {
            Row untypedRow = randomUntypedRow(random);
            Row row = randomRow(random);
            untyped.put(3, untypedRow.columnNames());
            byte[] encoded = switch (random.nextInt(4)) {
                case 0 -> UntypedRows.catalogued(3, untypedRow);
                case 1 -> UntypedRows.selfDescribing(untypedRow);
                case 2 -> RowCodec.encode("t", row, catalogue);
                default -> RowCodec.encodeSelfDescribing(row);
            };
            byte[] damaged = random.nextBoolean()
                    ? java.util.Arrays.copyOf(encoded, random.nextInt(encoded.length))
                    : flip(encoded, random);
            try {
                RowCodec.decode(damaged, schemas);
            } catch (CorruptionException e) {
                corrupt++;
            }
        }
        assertTrue(corrupt > 1000, "seed " + seed + ": " + corrupt);
        catalogue.close();
    }

    private static byte[] flip(byte[] bytes, Random random) {
        byte[] copy = bytes.clone();
        copy[random.nextInt(copy.length)] ^= (byte) (1 << random.nextInt(8));
        return copy;
    }

    @Test
    void unknownSchemaIdIsCorruption() {
        byte[] encoded = UntypedRows.catalogued(99, Row.builder().inline("a", new byte[1]).build());
        CorruptionException e = assertThrows(CorruptionException.class, () -> RowCodec.decode(encoded, id -> null));
        assertTrue(e.getMessage().contains("99"));
        byte[] typed = encoded.clone();
        typed[0] = RowCodec.FORMAT_TYPED_CATALOGUED;
        e = assertThrows(CorruptionException.class, () -> RowCodec.decode(typed, id -> List.of("a")));
        assertTrue(e.getMessage().contains("typed schema id 99"), e.getMessage());
    }

    @Test
    void separatedPointersHaveAFixedSize() {
        assertThrows(IllegalArgumentException.class, () -> ColumnValue.separated(new byte[19]));
        assertThrows(IllegalArgumentException.class, () -> Row.builder().inline("", new byte[0]));
    }

    @Test
    void cataloguedRowsOmitColumnNamesAndLengthsTheSchemaFixes() throws IOException {
        Row row = Row.builder()
                .fixed("content-sha256", new byte[32])
                .uint("content-length", 20_000)
                .fixed("etag", new byte[16])
                .text("content-type", "image/jpeg")
                .uint("last-modified", 1_704_067_200_000L)
                .separated("content", new byte[20])
                .build();
        try (SchemaCatalogue catalogue = memoryCatalogue()) {
            int catalogued = RowCodec.encode("objects", row, catalogue).length;
            int selfDescribing = RowCodec.encodeSelfDescribing(row).length;
            System.out.printf("object metadata row: %d bytes catalogued, %d self-describing (%.2f)%n",
                    catalogued, selfDescribing, (double) catalogued / selfDescribing);
            assertEquals(1 + 1 + 32 + 3 + 16 + 1 + 6 + 20, catalogued);
            assertEquals(1 + 1 + (1 + 14 + 1 + 1 + 32) + (1 + 14 + 1 + 3) + (1 + 4 + 1 + 1 + 16)
                    + (1 + 12 + 1 + 1 + 10) + (1 + 13 + 1 + 6) + (1 + 7 + 1 + 20), selfDescribing);
        }
    }
}
