package dev.cairn.engine.internal;

/**
 * A live value that value GC moves out of a file being collected. The write thread applies it
 * only if the key still points at {@code oldPointer}, so a newer write always wins.
 */
record Relocation(int tableId, byte[] userKey, byte[] oldPointer, byte[] value) {
}
