package dev.cairn.engine.row;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The schema catalogue of seed 000 §V: 32-bit schema ids ↔ sorted sets of column names, so that
 * rows carry an id instead of their column names.
 *
 * <p>Durability. A new id is appended to a segment file on the fast tier ({@code NNNNNN.cat},
 * docs/format/schema-catalogue.md) and synced — and a new segment's header synced and its
 * directory entry synced before its first record — before the id is returned. So no row that
 * uses an id can become durable before the id. Ids are handed out in increasing order, never
 * reused: on open, each segment yields "the next id it implies" — one past its last intact
 * schema record, or the first id recorded in its header if it has none — plus one if its tail is
 * damaged (a torn last record never reached its caller, but a synced one damaged later might
 * have, and it can only be the record right after the last intact one). The next id is the
 * largest of these. A damaged record followed by any intact record is corruption, not a tear, and
 * opening fails rather than risk handing out an id again.
 *
 * <p>Variable tables: see {@link SchemaCatalogueOptions#maxNewSchemasPerTable()}. The decision is
 * itself a durable record.
 *
 * <p>Thread-safe. Lookups are lock-free; assigning a new id takes the catalogue's monitor and
 * waits for a sync. If a write or sync fails, the catalogue refuses further assignments (the
 * state of the file is unknown) while lookups go on.
 */
public final class SchemaCatalogue implements SchemaLookup, Closeable {
    /** Returned by {@link #schemaIdFor} when the row must be written self-describing. */
    public static final int NO_SCHEMA = -1;
    /** Returned by {@link #valueIdFor} when the value must be written inline. */
    public static final int NO_VALUE = -1;
    /** Largest catalogue record; a column set whose record would be larger is not catalogued. */
    static final int MAX_FRAME_BYTES = 64 << 10;

    private static final System.Logger LOG = System.getLogger(SchemaCatalogue.class.getName());

    private final SchemaCatalogueOptions options;
    private final FileSystem fs;
    private final Path directory;
    private final ConcurrentHashMap<List<String>, Integer> idsByColumns = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, List<String>> columnsById = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<List<ColumnSpec>, Integer> idsByTypedColumns = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, List<ColumnSpec>> typedColumnsById = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ConcurrentHashMap<ByteBuffer, Integer>> valueIdsByColumn =
            new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, CatalogueFormat.Value> valuesById = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Integer> newSchemasByTable = new ConcurrentHashMap<>();
    private final Set<String> variableTables = ConcurrentHashMap.newKeySet();

    // Guarded by this.
    private int nextId = 1;
    private int nextSegment = 1;
    private WritableFile current;
    private boolean failed;
    private boolean closed;
    private final boolean readOnly;

    private SchemaCatalogue(SchemaCatalogueOptions options, boolean readOnly) {
        this.options = options;
        this.readOnly = readOnly;
        this.fs = options.fileSystem();
        this.directory = options.directory();
    }

    /** Opens the catalogue, replaying its segments. */
    public static SchemaCatalogue open(SchemaCatalogueOptions options) throws IOException {
        SchemaCatalogue catalogue = new SchemaCatalogue(options, false);
        catalogue.fs.createDirectories(catalogue.directory);
        catalogue.replay();
        return catalogue;
    }

    /**
     * Opens the catalogue for lookups alone: nothing in its directory is created, changed or
     * deleted (a missing directory reads as an empty catalogue), and assigning an id fails.
     */
    public static SchemaCatalogue openReadOnly(SchemaCatalogueOptions options) throws IOException {
        SchemaCatalogue catalogue = new SchemaCatalogue(options, true);
        if (catalogue.fs.exists(catalogue.directory)) {
            catalogue.replay();
        }
        return catalogue;
    }

    /**
     * The id of the schema {@code sortedColumns}, assigning and persisting a new one on first use,
     * or {@link #NO_SCHEMA} when {@code table} is variable (and this column set is not yet
     * catalogued), the catalogue is full, or the record would be too large.
     *
     * @param sortedColumns column names in strictly ascending {@link String#compareTo} order
     * @throws IOException if the new id could not be made durable; the row must not be written
     */
    public int schemaIdFor(String table, List<String> sortedColumns) throws IOException {
        return schemaId(table, sortedColumns, name -> name, idsByColumns, columnsById,
                (id, columns) -> CatalogueFormat.schemaFrame(id, table, columns));
    }

    /**
     * The id of the typed schema {@code sortedColumns} (names strictly ascending), assigning and
     * persisting a new one on first use, or {@link #NO_SCHEMA} as for {@link #schemaIdFor}.
     *
     * @throws IOException if the new id could not be made durable; the row must not be written
     */
    public int typedSchemaIdFor(String table, List<ColumnSpec> sortedColumns) throws IOException {
        return schemaId(table, sortedColumns, ColumnSpec::name, idsByTypedColumns, typedColumnsById,
                (id, columns) -> CatalogueFormat.typedSchemaFrame(id, table, columns));
    }

    private <C> int schemaId(String table, List<C> sortedColumns, Function<C, String> name,
            Map<List<C>, Integer> ids, Map<Integer, List<C>> columnsById, BiFunction<Integer, List<C>, byte[]> frame)
            throws IOException {
        Integer known = ids.get(sortedColumns);
        if (known != null) {
            return known;
        }
        List<C> columns = List.copyOf(sortedColumns);
        for (int i = 1; i < columns.size(); i++) {
            if (name.apply(columns.get(i - 1)).compareTo(name.apply(columns.get(i))) >= 0) {
                throw new IllegalArgumentException("columns must be strictly ascending: " + columns);
            }
        }
        return assign(table, columns, ids, columnsById, frame);
    }

    /**
     * The dictionary id of {@code value} in {@code column}, assigning and persisting a new one on
     * first use, or {@link #NO_VALUE} when the value is too long, the column's dictionary is full
     * ({@link SchemaCatalogueOptions#maxValuesPerColumn()}) or the catalogue's is. A new id is
     * durable before this returns.
     */
    public int valueIdFor(String column, byte[] value) throws IOException {
        if (value.length == 0 || value.length > options.maxValueBytes()) {
            return NO_VALUE;
        }
        int id = knownValueId(column, value);
        return id != 0 ? id : assignValue(column, value.clone());
    }

    /**
     * The value's id; {@link #NO_VALUE} when it has none and its column or the dictionary is full
     * (checked without the lock, so full columns cost no contention); 0 when it may get a new one.
     */
    private int knownValueId(String column, byte[] value) {
        ConcurrentHashMap<ByteBuffer, Integer> ids = valueIdsByColumn.get(column);
        Integer known = ids == null ? null : ids.get(ByteBuffer.wrap(value));
        if (known != null) {
            return known;
        }
        boolean full = (ids != null && ids.size() >= options.maxValuesPerColumn())
                || valuesById.size() >= options.maxValues();
        return full ? NO_VALUE : 0;
    }

    private synchronized <C> int assign(String table, List<C> columns, Map<List<C>, Integer> ids,
            Map<Integer, List<C>> columnsById, BiFunction<Integer, List<C>, byte[]> frameFor) throws IOException {
        Integer known = ids.get(columns);
        if (known != null) {
            return known;
        }
        if (!mayCreateSchema(table)) {
            return NO_SCHEMA;
        }
        byte[] frame = frameFor.apply(nextId, columns);
        if (frame.length > MAX_FRAME_BYTES) {
            return NO_SCHEMA;
        }
        int id = appendId(frame);
        columnsById.put(id, columns);
        ids.put(columns, id);
        newSchemasByTable.merge(table, 1, Integer::sum);
        return id;
    }

    private synchronized int assignValue(String column, byte[] value) throws IOException {
        int known = knownValueId(column, value);
        if (known != 0) {
            return known;
        }
        requireWritable();
        byte[] frame = CatalogueFormat.valueFrame(nextId, column, value);
        if (frame.length > MAX_FRAME_BYTES) {
            return NO_VALUE;
        }
        int id = appendId(frame);
        putValue(new CatalogueFormat.Value(id, column, value));
        return id;
    }

    /** REQUIRES: this is locked. Declares the table variable when it has created its share of ids. */
    private boolean mayCreateSchema(String table) throws IOException {
        if (variableTables.contains(table)) {
            return false;
        }
        requireWritable();
        if (newSchemasByTable.getOrDefault(table, 0) >= options.maxNewSchemasPerTable()) {
            appendDurably(CatalogueFormat.variableTableFrame(table));
            variableTables.add(table);
            LOG.log(System.Logger.Level.INFO, "table {0} declared variable: rows written self-describing", table);
            return false;
        }
        return schemaCount() < options.maxSchemas();
    }

    /** REQUIRES: this is locked. */
    private void requireWritable() throws IOException {
        if (closed || failed || readOnly) {
            throw new IOException("schema catalogue in " + directory
                    + (closed ? " is closed" : readOnly ? " is open read-only" : " failed earlier"));
        }
    }

    /** REQUIRES: this is locked; {@code frame} defines id {@link #nextId}. Returns that id, now durable. */
    private int appendId(byte[] frame) throws IOException {
        int id = nextId;
        appendDurably(frame);
        nextId++;
        return id;
    }

    private void putValue(CatalogueFormat.Value value) {
        valuesById.put(value.id(), value);
        valueIdsByColumn.computeIfAbsent(value.column(), c -> new ConcurrentHashMap<>())
                .putIfAbsent(ByteBuffer.wrap(value.value()), value.id());
    }

    /** REQUIRES: this is locked. */
    private void appendDurably(byte[] frame) throws IOException {
        try {
            if (current == null || current.size() + frame.length > options.segmentBytes()) {
                startSegment();
            }
            current.append(ByteBuffer.wrap(frame));
            current.sync();
        } catch (IOException e) {
            failed = true;
            throw e;
        }
    }

    /** REQUIRES: this is locked. */
    private void startSegment() throws IOException {
        if (current != null) {
            current.close();
            current = null;
        }
        int number = nextSegment++;
        WritableFile file = fs.create(directory.resolve(fileName(number)), WriteLifetime.LONG);
        current = file;
        file.append(ByteBuffer.wrap(CatalogueFormat.header(number, nextId)));
        file.sync();
        fs.syncDirectory(directory);
    }

    /** The sorted column names of schema {@code schemaId}, or null if no such id exists. */
    @Override
    public List<String> columns(int schemaId) {
        return columnsById.get(schemaId);
    }

    /** The typed columns of schema {@code schemaId}, or null if no typed schema has that id. */
    @Override
    public List<ColumnSpec> typedColumns(int schemaId) {
        return typedColumnsById.get(schemaId);
    }

    /** The value of dictionary id {@code valueId} if it belongs to {@code column}, else null. */
    @Override
    public byte[] value(int valueId, String column) {
        CatalogueFormat.Value v = valuesById.get(valueId);
        return v != null && v.column().equals(column) ? v.value() : null;
    }

    /** How many dictionary values the catalogue holds. */
    public int valueCount() {
        return valuesById.size();
    }

    /** Whether {@code table} was declared variable. */
    public boolean isVariable(String table) {
        return variableTables.contains(table);
    }

    /** How many schema ids rows of {@code table} created. */
    public int newSchemasBy(String table) {
        return newSchemasByTable.getOrDefault(table, 0);
    }

    public int schemaCount() {
        return columnsById.size() + typedColumnsById.size();
    }

    /** The id the next new schema will get. */
    public synchronized int nextId() {
        return nextId;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        if (current != null) {
            current.close();
            current = null;
        }
    }

    static String fileName(int number) {
        return String.format("%06d.cat", number);
    }

    /** The segment number named by {@code name}, or -1 if it is not a catalogue segment. */
    static int parseNumber(String name) {
        if (!name.endsWith(".cat") || name.length() < 10) {
            return -1;
        }
        try {
            long n = Long.parseLong(name.substring(0, name.length() - 4));
            return n > 0 && n < Integer.MAX_VALUE ? (int) n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    // ---------------------------------------------------------------- replay

    private synchronized void replay() throws IOException {
        List<Integer> numbers = new ArrayList<>();
        for (String name : fs.list(directory)) {
            int n = parseNumber(name);
            if (n > 0) {
                numbers.add(n);
            }
        }
        numbers.sort(null);
        for (int number : numbers) {
            nextSegment = number + 1;
            Path path = directory.resolve(fileName(number));
            byte[] bytes;
            try (ReadableFile file = fs.openRead(path)) {
                long size = file.size();
                if (size > Integer.MAX_VALUE - 8) {
                    throw new CorruptionException("schema catalogue file " + path + " is " + size + " bytes");
                }
                bytes = file.readFully(0, (int) size);
            }
            int firstId = CatalogueFormat.firstId(bytes, number);
            if (firstId < 1) {
                if (bytes.length <= CatalogueFormat.HEADER_BYTES) {
                    // Created, but the header never became durable: no record can follow it.
                    if (!readOnly) {
                        fs.delete(path);
                    }
                    continue;
                }
                throw new CorruptionException("schema catalogue file " + path + " has a bad header at offset 0");
            }
            nextId = Math.max(nextId, replaySegment(path, bytes, firstId));
        }
    }

    /** Applies a segment's records; returns the next id it implies. */
    private int replaySegment(Path path, byte[] bytes, int firstId) throws CorruptionException {
        int implied = firstId;
        int pos = CatalogueFormat.HEADER_BYTES;
        while (pos < bytes.length) {
            int size = CatalogueFormat.intactFrameSize(bytes, pos, bytes.length);
            if (size < 0) {
                checkTornTail(path, bytes, pos);
                return implied + 1;
            }
            int id = apply(path, bytes, pos, size);
            if (id > 0) {
                implied = id + 1;
            }
            pos += size;
        }
        return implied;
    }

    /** A damaged record is a torn tail only if it could be one last record and nothing intact follows it. */
    private static void checkTornTail(Path path, byte[] bytes, int pos) throws CorruptionException {
        if (bytes.length - pos > MAX_FRAME_BYTES) {
            throw new CorruptionException("schema catalogue file " + path + " is corrupt at offset " + pos);
        }
        for (int q = pos + 1; q < bytes.length; q++) {
            if (CatalogueFormat.intactFrameSize(bytes, q, bytes.length) > 0) {
                throw new CorruptionException("schema catalogue file " + path + " is corrupt at offset " + pos
                        + " (an intact record follows at offset " + q + ")");
            }
        }
        LOG.log(System.Logger.Level.INFO, "schema catalogue file {0}: torn tail at offset {1} ignored", path, pos);
    }

    /** Applies one intact frame; returns the id it defines, or 0. */
    private int apply(Path path, byte[] bytes, int pos, int size) throws CorruptionException {
        ByteBuffer in = ByteBuffer.wrap(bytes, pos + CatalogueFormat.FRAME_HEADER_BYTES,
                size - CatalogueFormat.FRAME_HEADER_BYTES);
        try {
            CatalogueFormat.Record record = CatalogueFormat.parse(bytes[pos + 8], in);
            int id = record.definedId();
            Object previous = definition(id);
            if (previous != null) {
                if (!previous.equals(definition(record))) {
                    throw new IllegalArgumentException("id " + id + " defined twice");
                }
                return id;
            }
            if (record instanceof CatalogueFormat.Schema s) {
                columnsById.put(id, s.columns());
                idsByColumns.putIfAbsent(s.columns(), id);
                newSchemasByTable.merge(s.table(), 1, Integer::sum);
            } else if (record instanceof CatalogueFormat.TypedSchema s) {
                typedColumnsById.put(id, s.columns());
                idsByTypedColumns.putIfAbsent(s.columns(), id);
                newSchemasByTable.merge(s.table(), 1, Integer::sum);
            } else if (record instanceof CatalogueFormat.Value v) {
                putValue(v);
            } else if (record instanceof CatalogueFormat.VariableTable v) {
                variableTables.add(v.table());
            }
            return id;
        } catch (RuntimeException e) {
            throw new CorruptionException("schema catalogue file " + path + " has a bad record at offset " + pos
                    + ": " + e.getMessage());
        }
    }

    /** What id {@code id} stands for, comparable with {@link #definition(CatalogueFormat.Record)}; null if undefined. */
    private Object definition(int id) {
        if (id < 1) {
            return null;
        }
        if (columnsById.containsKey(id)) {
            return List.of("schema", columnsById.get(id));
        }
        if (typedColumnsById.containsKey(id)) {
            return List.of("typed", typedColumnsById.get(id));
        }
        CatalogueFormat.Value v = valuesById.get(id);
        return v == null ? null : List.of("value", v.column(), ByteBuffer.wrap(v.value()));
    }

    private static Object definition(CatalogueFormat.Record record) {
        if (record instanceof CatalogueFormat.Schema s) {
            return List.of("schema", s.columns());
        }
        if (record instanceof CatalogueFormat.TypedSchema s) {
            return List.of("typed", s.columns());
        }
        CatalogueFormat.Value v = (CatalogueFormat.Value) record;
        return List.of("value", v.column(), ByteBuffer.wrap(v.value()));
    }
}
