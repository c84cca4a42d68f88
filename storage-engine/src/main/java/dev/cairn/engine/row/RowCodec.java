package dev.cairn.engine.row;

import dev.cairn.engine.ColumnValue;
import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Row;
import dev.cairn.engine.util.Varint;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Encodes rows in the forms of docs/format/row.md and decodes all of them.
 * <pre>
 *   typed catalogued (written):   0x03, varint schemaId, per column in schema order: typed cell
 *   typed self-describing (written): 0x04, varint count, per column in name order:
 *                                    varint nameLength, name (UTF-8), u8 type, self-describing cell
 *   catalogued (read only):       0x01, varint schemaId, per column: cell
 *   self-describing (read only):  0x02, varint count, per column: varint nameLength, name, cell
 * </pre>
 * Rows carry no checksum of their own: they are stored inside checksummed blocks and records.
 *
 * <p>Thread-safe: stateless.
 */
public final class RowCodec {
    /** Untyped catalogued rows; read only. DO NOT CHANGE: embedded in on-disk data. */
    public static final byte FORMAT_CATALOGUED = 0x01;
    /** Untyped self-describing rows; read only. DO NOT CHANGE: embedded in on-disk data. */
    public static final byte FORMAT_SELF_DESCRIBING = 0x02;
    /** DO NOT CHANGE: embedded in on-disk data. */
    public static final byte FORMAT_TYPED_CATALOGUED = 0x03;
    /** DO NOT CHANGE: embedded in on-disk data. */
    public static final byte FORMAT_TYPED_SELF_DESCRIBING = 0x04;

    private RowCodec() {
    }

    /**
     * Encodes {@code row} for {@code table}: typed catalogued when the catalogue gives its schema
     * an id, short byte values by their dictionary ids where it has them; typed self-describing
     * when the table is variable. New ids are durable before this returns.
     */
    public static byte[] encode(String table, Row row, SchemaCatalogue catalogue) throws IOException {
        List<ColumnSpec> specs = new ArrayList<>(row.size());
        for (Map.Entry<String, ColumnValue> e : row.asMap().entrySet()) {
            specs.add(ColumnSpec.of(e.getKey(), e.getValue()));
        }
        int id = catalogue.typedSchemaIdFor(table, specs);
        if (id == SchemaCatalogue.NO_SCHEMA) {
            return encodeSelfDescribing(row);
        }
        ByteWriter out = new ByteWriter(16 + 4 * row.size());
        out.u8(FORMAT_TYPED_CATALOGUED);
        out.varint(id);
        for (Map.Entry<String, ColumnValue> e : row.asMap().entrySet()) {
            ColumnValue v = e.getValue();
            switch (v.type()) {
                case BYTES -> {
                    byte[] bytes = v.bytes();
                    int valueId = catalogue.valueIdFor(e.getKey(), bytes);
                    if (valueId == SchemaCatalogue.NO_VALUE) {
                        out.varint((long) bytes.length << 1);
                        out.bytes(bytes);
                    } else {
                        out.varint(((long) valueId << 1) | 1);
                    }
                }
                case UINT -> out.varint(v.asLong());
                case FIXED, SEPARATED -> out.bytes(v.bytes());
            }
        }
        return out.toArray();
    }

    /** The typed self-describing form: every column carries its name and type. */
    public static byte[] encodeSelfDescribing(Row row) {
        ByteWriter out = new ByteWriter(16 + 16 * row.size());
        out.u8(FORMAT_TYPED_SELF_DESCRIBING);
        out.varint(row.size());
        for (Map.Entry<String, ColumnValue> e : row.asMap().entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            out.varint(name.length);
            out.bytes(name);
            ColumnValue v = e.getValue();
            out.u8(ColumnSpec.code(v.type()));
            switch (v.type()) {
                case BYTES, FIXED -> {
                    byte[] bytes = v.bytes();
                    out.varint(bytes.length);
                    out.bytes(bytes);
                }
                case UINT -> out.varint(v.asLong());
                case SEPARATED -> out.bytes(v.bytes());
            }
        }
        return out.toArray();
    }

    /** Decodes any form. Throws {@link CorruptionException} for malformed bytes or an unknown id. */
    public static Row decode(byte[] encoded, SchemaLookup schemas) throws CorruptionException {
        return decode(encoded, schemas, column -> true);
    }

    /**
     * Decodes the columns that {@code wanted} accepts, skipping the bytes of the others; a
     * catalogued row learns its layout from the schema before reading any value.
     */
    public static Row decode(byte[] encoded, SchemaLookup schemas, Predicate<String> wanted)
            throws CorruptionException {
        try {
            ByteBuffer in = ByteBuffer.wrap(encoded);
            byte format = in.get();
            Row.Builder row = Row.builder();
            if (format == FORMAT_TYPED_CATALOGUED) {
                int id = Varint.getInt(in);
                List<ColumnSpec> columns = schemas.typedColumns(id);
                if (columns == null) {
                    throw new CorruptionException("row refers to unknown typed schema id " + id);
                }
                for (ColumnSpec column : columns) {
                    readTypedCell(in, column, wanted.test(column.name()), schemas, row);
                }
            } else if (format == FORMAT_TYPED_SELF_DESCRIBING || format == FORMAT_SELF_DESCRIBING) {
                int count = Varint.getInt(in);
                String previous = null;
                for (int i = 0; i < count; i++) {
                    String column = name(in);
                    if (previous != null && previous.compareTo(column) >= 0) {
                        throw new CorruptionException("row columns out of order: '" + previous + "', '" + column + "'");
                    }
                    previous = column;
                    if (format == FORMAT_SELF_DESCRIBING) {
                        readUntypedCell(in, column, wanted, row);
                    } else {
                        readSelfDescribingCell(in, column, wanted.test(column), row);
                    }
                }
            } else if (format == FORMAT_CATALOGUED) {
                int id = Varint.getInt(in);
                List<String> columns = schemas.columns(id);
                if (columns == null) {
                    throw new CorruptionException("row refers to unknown schema id " + id);
                }
                for (String column : columns) {
                    readUntypedCell(in, column, wanted, row);
                }
            } else {
                throw new CorruptionException("unknown row format byte 0x" + Integer.toHexString(format & 0xFF));
            }
            if (in.hasRemaining()) {
                throw new CorruptionException("row has " + in.remaining() + " trailing bytes");
            }
            return row.build();
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptionException("malformed row: " + e);
        }
    }

    /** The schema id of a catalogued row, or {@link SchemaCatalogue#NO_SCHEMA} for a self-describing one. */
    public static int schemaId(byte[] encoded) throws CorruptionException {
        try {
            ByteBuffer in = ByteBuffer.wrap(encoded);
            byte format = in.get();
            if (format == FORMAT_SELF_DESCRIBING || format == FORMAT_TYPED_SELF_DESCRIBING) {
                return SchemaCatalogue.NO_SCHEMA;
            }
            if (format != FORMAT_CATALOGUED && format != FORMAT_TYPED_CATALOGUED) {
                throw new CorruptionException("unknown row format byte 0x" + Integer.toHexString(format & 0xFF));
            }
            return Varint.getInt(in);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptionException("malformed row: " + e);
        }
    }

    private static void readTypedCell(ByteBuffer in, ColumnSpec column, boolean wanted, SchemaLookup schemas,
            Row.Builder row) throws CorruptionException {
        switch (column.type()) {
            case BYTES -> {
                long tag = Varint.getLong(in);
                if ((tag & 1) != 0) {
                    long valueId = tag >>> 1;
                    byte[] value = valueId > Integer.MAX_VALUE ? null : schemas.value((int) valueId, column.name());
                    if (value == null) {
                        throw new CorruptionException("row cell of column '" + column.name()
                                + "' refers to dictionary id " + valueId + ", which is not one of its values");
                    }
                    if (wanted) {
                        row.put(column.name(), ColumnValue.inline(value));
                    }
                } else {
                    byte[] bytes = take(in, column.name(), tag >>> 1, wanted);
                    if (wanted) {
                        row.put(column.name(), ColumnValue.inline(bytes));
                    }
                }
            }
            case UINT -> {
                long value = Varint.getLong(in);
                if (wanted) {
                    row.put(column.name(), ColumnValue.uint(value));
                }
            }
            case FIXED -> {
                byte[] bytes = take(in, column.name(), column.width(), wanted);
                if (wanted) {
                    row.put(column.name(), ColumnValue.fixed(bytes));
                }
            }
            case SEPARATED -> {
                byte[] bytes = take(in, column.name(), ColumnValue.SEPARATED_POINTER_BYTES, wanted);
                if (wanted) {
                    row.put(column.name(), ColumnValue.separated(bytes));
                }
            }
        }
    }

    private static void readSelfDescribingCell(ByteBuffer in, String column, boolean wanted, Row.Builder row)
            throws CorruptionException {
        ColumnValue.Type type = ColumnSpec.type(in.get());
        switch (type) {
            case BYTES, FIXED -> {
                long length = Varint.getLong(in);
                if (type == ColumnValue.Type.FIXED && (length < 1 || length > ColumnValue.MAX_FIXED_WIDTH)) {
                    throw new CorruptionException("row column '" + column + "' has a fixed width of " + length);
                }
                byte[] bytes = take(in, column, length, wanted);
                if (wanted) {
                    row.put(column, type == ColumnValue.Type.FIXED ? ColumnValue.fixed(bytes) : ColumnValue.inline(bytes));
                }
            }
            case UINT -> {
                long value = Varint.getLong(in);
                if (wanted) {
                    row.put(column, ColumnValue.uint(value));
                }
            }
            case SEPARATED -> {
                byte[] bytes = take(in, column, ColumnValue.SEPARATED_POINTER_BYTES, wanted);
                if (wanted) {
                    row.put(column, ColumnValue.separated(bytes));
                }
            }
        }
    }

    private static void readUntypedCell(ByteBuffer in, String column, Predicate<String> wanted, Row.Builder row)
            throws CorruptionException {
        long tag = Varint.getLong(in);
        long length = tag >>> 1;
        boolean separated = (tag & 1) != 0;
        if (separated && length != ColumnValue.SEPARATED_POINTER_BYTES) {
            throw new CorruptionException("row cell of column '" + column + "' claims a " + length + "-byte pointer");
        }
        boolean want = wanted.test(column);
        byte[] bytes = take(in, column, length, want);
        if (want) {
            row.put(column, separated ? ColumnValue.separated(bytes) : ColumnValue.inline(bytes));
        }
    }

    /** The next {@code length} bytes, or null (skipping them) when not {@code wanted}. */
    private static byte[] take(ByteBuffer in, String column, long length, boolean wanted) throws CorruptionException {
        if (length > in.remaining()) {
            throw new CorruptionException("row cell of column '" + column + "' claims " + length + " bytes with "
                    + in.remaining() + " left");
        }
        if (!wanted) {
            in.position(in.position() + (int) length);
            return null;
        }
        byte[] bytes = new byte[(int) length];
        in.get(bytes);
        return bytes;
    }

    private static String name(ByteBuffer in) throws CorruptionException {
        int length = Varint.getInt(in);
        if (length == 0 || length > Row.MAX_COLUMN_NAME_BYTES || length > in.remaining()) {
            throw new CorruptionException("row column name of " + length + " bytes");
        }
        ByteBuffer slice = in.slice();
        slice.limit(length);
        in.position(in.position() + length);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(slice).toString();
        } catch (CharacterCodingException e) {
            throw new CorruptionException("row column name is not UTF-8");
        }
    }
}
