package dev.cairn.engine.row;

import java.util.List;

/** Resolves a schema id to its sorted column names; null when the id is unknown. */
@FunctionalInterface
public interface SchemaLookup {
    List<String> columns(int schemaId);
}
