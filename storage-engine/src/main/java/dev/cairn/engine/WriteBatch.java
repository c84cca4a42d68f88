package dev.cairn.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** Operations applied atomically by {@link Engine#write}. Not thread-safe while being built. */
public final class WriteBatch {

    /** One operation; {@code value} is null for a delete. */
    public record Op(Table table, byte[] key, byte[] value) {
        public boolean isDelete() {
            return value == null;
        }
    }

    private final List<Op> ops = new ArrayList<>();

    public WriteBatch put(Table table, byte[] key, byte[] value) {
        ops.add(new Op(Objects.requireNonNull(table), Objects.requireNonNull(key), Objects.requireNonNull(value)));
        return this;
    }

    /** Puts {@code row} in its stored form ({@link Table#encodeRow}). */
    public WriteBatch putRow(Table table, byte[] key, Row row) throws java.io.IOException {
        return put(table, key, table.encodeRow(row));
    }

    public WriteBatch delete(Table table, byte[] key) {
        ops.add(new Op(Objects.requireNonNull(table), Objects.requireNonNull(key), null));
        return this;
    }

    public List<Op> ops() {
        return Collections.unmodifiableList(ops);
    }

    public int size() {
        return ops.size();
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }
}
