package dev.cairn.engine;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A row: named columns, each with a typed {@link ColumnValue}, ordered by column name
 * ({@link String#compareTo}). Its schema is the sorted list of its column names with their types
 * (docs/format/row.md). Immutable.
 */
public final class Row {
    /** Longest column name, in UTF-8 bytes. */
    public static final int MAX_COLUMN_NAME_BYTES = 1024;

    private final TreeMap<String, ColumnValue> columns;
    private final List<String> names;

    private Row(TreeMap<String, ColumnValue> columns) {
        this.columns = columns;
        this.names = List.copyOf(columns.keySet());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The column names in order: the row's schema. */
    public List<String> columnNames() {
        return names;
    }

    /** The column's value, or null if the row has no such column. */
    public ColumnValue get(String column) {
        return columns.get(column);
    }

    public int size() {
        return names.size();
    }

    public Map<String, ColumnValue> asMap() {
        return Collections.unmodifiableMap(columns);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row other && columns.equals(other.columns);
    }

    @Override
    public int hashCode() {
        return columns.hashCode();
    }

    @Override
    public String toString() {
        return "Row" + columns;
    }

    /** Not thread-safe. A later value for the same column replaces the earlier one. */
    public static final class Builder {
        private final TreeMap<String, ColumnValue> columns = new TreeMap<>();

        private Builder() {
        }

        public Builder put(String column, ColumnValue value) {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(value, "value");
            int nameBytes = column.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (nameBytes == 0 || nameBytes > MAX_COLUMN_NAME_BYTES) {
                throw new IllegalArgumentException("column names are 1.." + MAX_COLUMN_NAME_BYTES
                        + " UTF-8 bytes: '" + column + "'");
            }
            columns.put(column, value);
            return this;
        }

        public Builder inline(String column, byte[] value) {
            return put(column, ColumnValue.inline(value));
        }

        public Builder text(String column, String value) {
            return put(column, ColumnValue.text(value));
        }

        public Builder uint(String column, long value) {
            return put(column, ColumnValue.uint(value));
        }

        public Builder fixed(String column, byte[] value) {
            return put(column, ColumnValue.fixed(value));
        }

        public Builder separated(String column, byte[] pointer) {
            return put(column, ColumnValue.separated(pointer));
        }

        public Row build() {
            return new Row(new TreeMap<>(columns));
        }
    }
}
