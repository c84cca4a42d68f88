package dev.cairn.engine;

/** A key and its value, as returned by a scan. */
public record Entry(byte[] key, byte[] value) {
}
