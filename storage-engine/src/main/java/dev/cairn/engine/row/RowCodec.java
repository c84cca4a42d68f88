package dev.cairn.engine.row;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.util.Varint;
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
 * Encodes rows in the two forms of docs/format/row.md and decodes either.
 * <pre>
 *   catalogued:        0x01, varint schemaId, then per column in schema order: cell
 *   self-describing:   0x02, varint columnCount, then per column in name order:
 *                      varint nameLength, name (UTF-8), cell
 *   cell:              varint (length &lt;&lt; 1 | separated), length bytes
 * </pre>
 * A separated cell holds a {@link ColumnValue#SEPARATED_POINTER_BYTES}-byte pointer. Rows carry
 * no checksum of their own: they are stored inside checksummed blocks and records.
 *
 * <p>Thread-safe: stateless.
 */
public final class RowCodec {
    /** DO NOT CHANGE: embedded in on-disk data. */
    public static final byte FORMAT_CATALOGUED = 0x01;
    /** DO NOT CHANGE: embedded in on-disk data. */
    public static final byte FORMAT_SELF_DESCRIBING = 0x02;

    private RowCodec() {
    }

    /**
     * Encodes {@code row} for {@code table}: catalogued when the catalogue gives its schema an id,
     * self-describing when the table is variable. The id, if new, is durable before this returns.
     */
    public static byte[] encode(String table, Row row, SchemaCatalogue catalogue) throws java.io.IOException {
        int id = catalogue.schemaIdFor(table, row.columnNames());
        return id == SchemaCatalogue.NO_SCHEMA ? encodeSelfDescribing(row) : encodeCatalogued(id, row);
    }

    public static byte[] encodeCatalogued(int schemaId, Row row) {
        if (schemaId <= 0) {
            throw new IllegalArgumentException("schema ids are positive: " + schemaId);
        }
        int size = 1 + Varint.size(schemaId);
        for (ColumnValue v : row.asMap().values()) {
            size += cellSize(v);
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(FORMAT_CATALOGUED);
        Varint.putLong(out, schemaId);
        for (ColumnValue v : row.asMap().values()) {
            putCell(out, v);
        }
        return out.array();
    }

    public static byte[] encodeSelfDescribing(Row row) {
        List<byte[]> names = new ArrayList<>(row.size());
        int size = 1 + Varint.size(row.size());
        for (Map.Entry<String, ColumnValue> e : row.asMap().entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            names.add(name);
            size += Varint.size(name.length) + name.length + cellSize(e.getValue());
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(FORMAT_SELF_DESCRIBING);
        Varint.putLong(out, row.size());
        int i = 0;
        for (ColumnValue v : row.asMap().values()) {
            byte[] name = names.get(i++);
            Varint.putLong(out, name.length);
            out.put(name);
            putCell(out, v);
        }
        return out.array();
    }

    private static int cellSize(ColumnValue v) {
        return Varint.size(((long) v.length() << 1) | 1) + v.length();
    }

    private static void putCell(ByteBuffer out, ColumnValue v) {
        Varint.putLong(out, ((long) v.length() << 1) | (v.isSeparated() ? 1 : 0));
        out.put(v.rawBytes());
    }

    /** Decodes either form. Throws {@link CorruptionException} for malformed bytes or an unknown schema id. */
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
            if (format == FORMAT_CATALOGUED) {
                int id = Varint.getInt(in);
                List<String> columns = schemas.columns(id);
                if (columns == null) {
                    throw new CorruptionException("row refers to unknown schema id " + id);
                }
                for (String column : columns) {
                    readCell(in, column, wanted, row);
                }
            } else if (format == FORMAT_SELF_DESCRIBING) {
                int count = Varint.getInt(in);
                String previous = null;
                for (int i = 0; i < count; i++) {
                    int nameLength = Varint.getInt(in);
                    if (nameLength == 0 || nameLength > Row.MAX_COLUMN_NAME_BYTES) {
                        throw new CorruptionException("row column name of " + nameLength + " bytes");
                    }
                    String column = utf8(in, nameLength);
                    if (previous != null && previous.compareTo(column) >= 0) {
                        throw new CorruptionException("row columns out of order: '" + previous + "', '" + column + "'");
                    }
                    previous = column;
                    readCell(in, column, wanted, row);
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
            if (format == FORMAT_SELF_DESCRIBING) {
                return SchemaCatalogue.NO_SCHEMA;
            }
            if (format != FORMAT_CATALOGUED) {
                throw new CorruptionException("unknown row format byte 0x" + Integer.toHexString(format & 0xFF));
            }
            return Varint.getInt(in);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptionException("malformed row: " + e);
        }
    }

    private static void readCell(ByteBuffer in, String column, Predicate<String> wanted, Row.Builder row)
            throws CorruptionException {
        long tag = Varint.getLong(in);
        long length = tag >>> 1;
        boolean separated = (tag & 1) != 0;
        if (length > in.remaining() || (separated && length != ColumnValue.SEPARATED_POINTER_BYTES)) {
            throw new CorruptionException("row cell of column '" + column + "' claims " + length
                    + (separated ? " pointer" : "") + " bytes with " + in.remaining() + " left");
        }
        if (!wanted.test(column)) {
            in.position(in.position() + (int) length);
            return;
        }
        byte[] bytes = new byte[(int) length];
        in.get(bytes);
        row.put(column, ColumnValue.wrap(bytes, separated));
    }

    private static String utf8(ByteBuffer in, int length) throws CorruptionException {
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
