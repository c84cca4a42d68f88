package dev.cairn.engine.row;

import java.util.List;

/** Resolves catalogue ids: schemas and dictionary values; null when the id is unknown. */
@FunctionalInterface
interface SchemaLookup {
    /** The sorted column names of an untyped schema (rows of format 0x01). */
    List<String> columns(int schemaId);

    /** The columns of a typed schema (rows of format 0x03). */
    default List<ColumnSpec> typedColumns(int schemaId) {
        return null;
    }

    /** The dictionary value {@code valueId} if it belongs to {@code column}. REQUIRES: the caller does not modify it. */
    default byte[] value(int valueId, String column) {
        return null;
    }
}
