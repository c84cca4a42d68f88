package dev.cairn.store.embedded;

import dev.cairn.engine.Engine;
import dev.cairn.engine.Table;
import java.io.IOException;

/**
 * The engine and the tables the embedded store keeps in it (docs/object-stores.md, "Embedded layout").
 * Holds no state of its own; the tables are the engine's and thread-safe.
 */
final class EmbeddedTables {
    final Engine engine;
    final Table buckets;
    final Table objects;
    final Table blobs;
    final Table chunks;
    final Table refs;
    final Table uploads;
    final Table parts;
    final Table versions;
    final Intents intents;
    final PartLayouts layouts;

    EmbeddedTables(Engine engine) throws IOException {
        this.engine = engine;
        buckets = engine.table("buckets");
        objects = engine.table("objects");
        blobs = engine.table("blobs");
        chunks = engine.table("chunks");
        refs = engine.table("refs");
        uploads = engine.table("uploads");
        parts = engine.table("parts");
        versions = engine.table("versions");
        intents = new Intents(engine.table("intents"));
        layouts = new PartLayouts(engine.table("layouts"));
    }
}
