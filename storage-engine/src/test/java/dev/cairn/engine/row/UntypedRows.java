package dev.cairn.engine.row;

import dev.cairn.engine.ColumnValue;
import dev.cairn.engine.Row;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes the untyped row forms (0x01, 0x02 of docs/format/row.md), which the engine still reads
 * but no longer writes, so that tests can give it data as older versions wrote it.
 */
final class UntypedRows {
    private UntypedRows() {
    }

    static byte[] catalogued(int schemaId, Row row) {
        ByteWriter out = new ByteWriter(64);
        out.u8(RowCodec.FORMAT_CATALOGUED);
        out.varint(schemaId);
        for (ColumnValue v : row.asMap().values()) {
            cell(out, v);
        }
        return out.toArray();
    }

    static byte[] selfDescribing(Row row) {
        ByteWriter out = new ByteWriter(64);
        out.u8(RowCodec.FORMAT_SELF_DESCRIBING);
        out.varint(row.size());
        for (Map.Entry<String, ColumnValue> e : row.asMap().entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            out.varint(name.length);
            out.bytes(name);
            cell(out, e.getValue());
        }
        return out.toArray();
    }

    private static void cell(ByteWriter out, ColumnValue v) {
        if (v.type() != ColumnValue.Type.BYTES && v.type() != ColumnValue.Type.SEPARATED) {
            throw new IllegalArgumentException("untyped rows hold bytes and pointers only, not " + v.type());
        }
        byte[] bytes = v.bytes();
        out.varint(((long) bytes.length << 1) | (v.isSeparated() ? 1 : 0));
        out.bytes(bytes);
    }
}
