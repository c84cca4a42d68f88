package dev.cairn.engine.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.engine.ColumnValue;
import dev.cairn.engine.Row;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows and catalogue records encode to the bytes of docs/format/row.md and schema-catalogue.md. */
class RowBytesTest {

    @Test
    void typedSelfDescribingRow() {
        Row row = Row.builder().uint("n", 300).inline("b", "hi".getBytes(StandardCharsets.UTF_8)).build();
        // 0x04, count 2; "b": BYTES (1), length 2, "hi"; "n": UINT (2), 300
        assertArrayEquals(hex("04 02 0162 01 02 6869 016e 02 ac02"), RowCodec.encodeSelfDescribing(row));
    }

    @Test
    void untypedForms() {
        Row row = Row.builder().inline("a", new byte[200]).build();
        byte[] catalogued = UntypedRows.catalogued(130, row);
        // 0x01, schema id 130, cell tag 200 << 1 = 400 (not separated), 200 bytes
        assertArrayEquals(hex("01 8201 9003"), Arrays.copyOf(catalogued, 5));
        assertEquals(5 + 200, catalogued.length);
        assertArrayEquals(hex("02 01 0161 9003"), Arrays.copyOf(UntypedRows.selfDescribing(row), 6));
    }

    @Test
    void catalogueRecords() {
        assertArrayEquals(hex("05 03746162 02 0161 026263"),
                payload(CatalogueFormat.schemaFrame(5, "tab", List.of("a", "bc")), CatalogueFormat.TYPE_SCHEMA));
        assertArrayEquals(hex("ac02 0174 02 0161 03 14 0162 02"),
                payload(CatalogueFormat.typedSchemaFrame(300, "t", List.of(
                        new ColumnSpec("a", ColumnValue.Type.FIXED, 20),
                        new ColumnSpec("b", ColumnValue.Type.UINT, 0))), CatalogueFormat.TYPE_TYPED_SCHEMA));
        assertArrayEquals(hex("03 78797a"),
                payload(CatalogueFormat.variableTableFrame("xyz"), CatalogueFormat.TYPE_VARIABLE_TABLE));
        assertArrayEquals(hex("8001 0163 02 0102"),
                payload(CatalogueFormat.valueFrame(128, "c", new byte[] {1, 2}), CatalogueFormat.TYPE_VALUE));
    }

    /** The payload of a frame, after checking its length (u32 little-endian) and type. */
    private static byte[] payload(byte[] frame, byte type) {
        int length = (frame[4] & 0xFF) | (frame[5] & 0xFF) << 8 | (frame[6] & 0xFF) << 16 | (frame[7] & 0xFF) << 24;
        assertEquals(frame.length - CatalogueFormat.FRAME_HEADER_BYTES, length);
        assertEquals(type, frame[8]);
        assertEquals(CatalogueFormat.FRAME_HEADER_BYTES + length,
                CatalogueFormat.intactFrameSize(frame, 0, frame.length), "checksum");
        return Arrays.copyOfRange(frame, CatalogueFormat.FRAME_HEADER_BYTES, frame.length);
    }

    private static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }
}
