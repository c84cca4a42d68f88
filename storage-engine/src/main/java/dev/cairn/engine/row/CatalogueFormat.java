package dev.cairn.engine.row;

import dev.cairn.engine.ColumnValue;
import dev.cairn.engine.util.Checksums;
import dev.cairn.engine.util.Varint;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The byte layout of schema catalogue segments (docs/format/schema-catalogue.md), little-endian.
 * <pre>
 *   header (24 bytes): magic "CAIRNCAT" (8), version u32 (1), segment number u32,
 *                      first id u32 (the next id when the segment was created),
 *                      crc32c u32 of bytes 0..19
 *   frame:             crc32c u32 of bytes 4..end, payload length u32, type u8, payload
 *   SCHEMA payload:    varint id, varint tableLength, table (UTF-8),
 *                      varint columnCount, columnCount × (varint nameLength, name (UTF-8))
 *   VARIABLE payload:  varint tableLength, table (UTF-8)
 *   TYPED SCHEMA:      varint id, varint tableLength, table (UTF-8), varint columnCount,
 *                      columnCount × (varint nameLength, name (UTF-8), u8 type, [varint width if fixed])
 *   VALUE payload:     varint id, varint columnLength, column (UTF-8), varint valueLength, value
 * </pre>
 */
final class CatalogueFormat {
    static final int HEADER_BYTES = 24;
    static final int FRAME_HEADER_BYTES = 9;
    /** DO NOT CHANGE: embedded in on-disk data. */
    static final byte[] MAGIC = "CAIRNCAT".getBytes(StandardCharsets.US_ASCII);
    /** DO NOT CHANGE: embedded in on-disk data. */
    static final int VERSION = 1;
    /** Record type of a schema definition. DO NOT CHANGE: embedded in on-disk data. */
    static final byte TYPE_SCHEMA = 1;
    /** Record type of a variable-table decision. DO NOT CHANGE: embedded in on-disk data. */
    static final byte TYPE_VARIABLE_TABLE = 2;
    /** Record type of a typed schema definition. DO NOT CHANGE: embedded in on-disk data. */
    static final byte TYPE_TYPED_SCHEMA = 3;
    /** Record type of a dictionary value. DO NOT CHANGE: embedded in on-disk data. */
    static final byte TYPE_VALUE = 4;

    /** A decoded record. */
    sealed interface Record permits Schema, TypedSchema, VariableTable, Value {
        /** The id the record defines, or 0. */
        default int definedId() {
            return 0;
        }
    }

    record Schema(int id, String table, List<String> columns) implements Record {
        @Override
        public int definedId() {
            return id;
        }
    }

    record TypedSchema(int id, String table, List<ColumnSpec> columns) implements Record {
        @Override
        public int definedId() {
            return id;
        }
    }

    record VariableTable(String table) implements Record {
    }

    record Value(int id, String column, byte[] value) implements Record {
        @Override
        public int definedId() {
            return id;
        }
    }

    private CatalogueFormat() {
    }

    static byte[] header(int segment, int firstId) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(VERSION).putInt(segment).putInt(firstId);
        b.putInt(Checksums.crc32c(b.array(), 0, 20));
        return b.array();
    }

    /** The first id recorded in a valid header of {@code segment}, or -1 if the header is invalid. */
    static int firstId(byte[] header, int segment) {
        if (header.length < HEADER_BYTES || !Arrays.equals(header, 0, 8, MAGIC, 0, 8)) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(8) != VERSION || b.getInt(12) != segment || b.getInt(20) != Checksums.crc32c(header, 0, 20)) {
            return -1;
        }
        return b.getInt(16);
    }

    static byte[] schemaFrame(int id, String table, List<String> columns) {
        ByteWriter w = new ByteWriter(64);
        w.varint(id);
        w.string(table);
        w.varint(columns.size());
        for (String column : columns) {
            w.string(column);
        }
        return frame(TYPE_SCHEMA, w.toArray());
    }

    static byte[] typedSchemaFrame(int id, String table, List<ColumnSpec> columns) {
        ByteWriter w = new ByteWriter(64);
        w.varint(id);
        w.string(table);
        w.varint(columns.size());
        for (ColumnSpec c : columns) {
            w.string(c.name());
            w.u8(c.code());
            if (c.width() > 0) {
                w.varint(c.width());
            }
        }
        return frame(TYPE_TYPED_SCHEMA, w.toArray());
    }

    static byte[] valueFrame(int id, String column, byte[] value) {
        ByteWriter w = new ByteWriter(64);
        w.varint(id);
        w.string(column);
        w.varint(value.length);
        w.bytes(value);
        return frame(TYPE_VALUE, w.toArray());
    }

    /**
     * Decodes the payload of an intact record. Throws {@link IllegalArgumentException} (or another
     * runtime exception) when the payload is impossible.
     */
    static Record parse(byte type, ByteBuffer in) {
        Record record = switch (type) {
            case TYPE_SCHEMA -> {
                int id = positiveId(in);
                String table = string(in);
                int count = count(in);
                List<String> columns = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    columns.add(string(in));
                }
                yield new Schema(id, table, List.copyOf(columns));
            }
            case TYPE_TYPED_SCHEMA -> {
                int id = positiveId(in);
                String table = string(in);
                int count = count(in);
                List<ColumnSpec> columns = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    String name = string(in);
                    ColumnValue.Type columnType = ColumnSpec.type(in.get());
                    int width = columnType == ColumnValue.Type.FIXED ? Varint.getInt(in) : 0;
                    columns.add(new ColumnSpec(name, columnType, width));
                }
                yield new TypedSchema(id, table, List.copyOf(columns));
            }
            case TYPE_VARIABLE_TABLE -> new VariableTable(string(in));
            case TYPE_VALUE -> {
                int id = positiveId(in);
                String column = string(in);
                int length = count(in);
                byte[] value = new byte[length];
                in.get(value);
                yield new Value(id, column, value);
            }
            default -> throw new IllegalArgumentException("unknown record type " + type);
        };
        if (in.hasRemaining()) {
            throw new IllegalArgumentException(in.remaining() + " trailing bytes");
        }
        return record;
    }

    private static int positiveId(ByteBuffer in) {
        int id = Varint.getInt(in);
        if (id < 1) {
            throw new IllegalArgumentException("id " + id);
        }
        return id;
    }

    private static int count(ByteBuffer in) {
        int n = Varint.getInt(in);
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("count " + n + " with " + in.remaining() + " bytes left");
        }
        return n;
    }

    private static String string(ByteBuffer in) {
        int length = count(in);
        String s = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return s;
    }

    static byte[] variableTableFrame(String table) {
        ByteWriter w = new ByteWriter(16);
        w.string(table);
        return frame(TYPE_VARIABLE_TABLE, w.toArray());
    }

    private static byte[] frame(byte type, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(FRAME_HEADER_BYTES + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0).putInt(payload.length).put(type).put(payload);
        b.putInt(0, Checksums.crc32c(b.array(), 4, b.capacity() - 4));
        return b.array();
    }

    /**
     * Size of the intact frame at {@code at}, or -1 if there is none there (too short, length
     * past {@code end}, or checksum mismatch).
     */
    static int intactFrameSize(byte[] bytes, int at, int end) {
        if (end - at < FRAME_HEADER_BYTES) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long length = b.getInt(at + 4) & 0xFFFF_FFFFL;
        if (length > end - at - FRAME_HEADER_BYTES) {
            return -1;
        }
        int size = FRAME_HEADER_BYTES + (int) length;
        return b.getInt(at) == Checksums.crc32c(bytes, at + 4, size - 4) ? size : -1;
    }
}
