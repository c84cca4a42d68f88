package dev.cairn.engine.row;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.CorruptionException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowCodecTest {

    static Row randomRow(Random random) {
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

    @Test
    void bothFormsRoundTrip() throws CorruptionException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("RowCodecTest seed " + seed);
        Random random = new Random(seed);
        Map<Integer, List<String>> schemas = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            Row row = randomRow(random);
            int id = 1 + random.nextInt(1000);
            schemas.put(id, row.columnNames());
            byte[] catalogued = RowCodec.encodeCatalogued(id, row);
            byte[] selfDescribing = RowCodec.encodeSelfDescribing(row);
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
        byte[] encoded = RowCodec.encodeCatalogued(7, row);
        Row onlyC = RowCodec.decode(encoded, id -> row.columnNames(), Set.of("c")::contains);
        assertEquals(List.of("c"), onlyC.columnNames());
        assertTrue(onlyC.get("c").isSeparated());
    }

    @Test
    void malformedRowsFailWithCorruptionNeverAnotherException() {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("RowCodecTest fuzz seed " + seed);
        Random random = new Random(seed);
        Map<Integer, List<String>> schemas = new HashMap<>();
        int corrupt = 0;
        for (int i = 0; i < 5000; i++) {
            Row row = randomRow(random);
            schemas.put(3, row.columnNames());
            byte[] encoded = random.nextBoolean() ? RowCodec.encodeCatalogued(3, row) : RowCodec.encodeSelfDescribing(row);
            byte[] damaged = random.nextBoolean()
                    ? java.util.Arrays.copyOf(encoded, random.nextInt(encoded.length))
                    : flip(encoded, random);
            try {
                RowCodec.decode(damaged, schemas::get);
            } catch (CorruptionException e) {
                corrupt++;
            }
        }
        assertTrue(corrupt > 1000, "seed " + seed + ": " + corrupt);
    }

    private static byte[] flip(byte[] bytes, Random random) {
        byte[] copy = bytes.clone();
        copy[random.nextInt(copy.length)] ^= (byte) (1 << random.nextInt(8));
        return copy;
    }

    @Test
    void unknownSchemaIdIsCorruption() {
        byte[] encoded = RowCodec.encodeCatalogued(99, Row.builder().inline("a", new byte[1]).build());
        CorruptionException e = assertThrows(CorruptionException.class, () -> RowCodec.decode(encoded, id -> null));
        assertTrue(e.getMessage().contains("99"));
    }

    @Test
    void separatedPointersHaveAFixedSize() {
        assertThrows(IllegalArgumentException.class, () -> ColumnValue.separated(new byte[19]));
        assertThrows(IllegalArgumentException.class, () -> Row.builder().inline("", new byte[0]));
    }

    @Test
    void cataloguedRowsOmitColumnNames() {
        Row row = Row.builder()
                .inline("content-sha256", new byte[32])
                .inline("size", new byte[] {0x50, 0x00})
                .inline("etag", new byte[16])
                .inline("content-type", "image/jpeg".getBytes(StandardCharsets.UTF_8))
                .inline("last-modified", new byte[8])
                .separated("content", new byte[20])
                .build();
        int catalogued = RowCodec.encodeCatalogued(12, row).length;
        int selfDescribing = RowCodec.encodeSelfDescribing(row).length;
        System.out.printf("object metadata row: %d bytes catalogued, %d self-describing (%.2f)%n",
                catalogued, selfDescribing, (double) catalogued / selfDescribing);
        assertTrue(catalogued < selfDescribing);
    }
}
