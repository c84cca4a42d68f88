package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.util.Varint;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The engine's durable state: which files are live, which tables exist, where replay starts.
 * Immutable; every change writes a whole new manifest (edits are rare: flushes, compactions,
 * value file changes, table creation). Layout in docs/format/manifest.md.
 *
 * @param nextFileNumber  the next number to give a file
 * @param lastSequence    every sequence up to this one is in an SSTable or a replayable log
 * @param logNumber       commit log segments numbered at least this are replayed on open
 * @param tables          table name to table id
 * @param levels          SSTables per level; level 0 newest first, deeper levels by key
 * @param valueFiles      live value files and their known garbage bytes
 */
record ManifestState(
        long nextFileNumber,
        long lastSequence,
        long logNumber,
        Map<String, Integer> tables,
        List<List<FileMeta>> levels,
        Map<Long, Long> valueFiles) {
    /** A table id (2 bytes) and a trailer: the shortest internal key a table can hold. */
    private static final int MIN_INTERNAL_KEY_BYTES = 2 + dev.cairn.engine.sstable.InternalKeys.TRAILER_BYTES;

    static final int MAX_LEVELS = 7;

    static ManifestState empty() {
        List<List<FileMeta>> levels = new ArrayList<>();
        for (int i = 0; i < MAX_LEVELS; i++) {
            levels.add(List.of());
        }
        return new ManifestState(1, 0, 0, Map.of(), List.copyOf(levels), Map.of());
    }

    ManifestState withNextFileNumber(long n) {
        return new ManifestState(n, lastSequence, logNumber, tables, levels, valueFiles);
    }

    ManifestState withTable(String name, int id) {
        Map<String, Integer> t = new LinkedHashMap<>(tables);
        t.put(name, id);
        return new ManifestState(nextFileNumber, lastSequence, logNumber, Map.copyOf(t), levels, valueFiles);
    }

    ManifestState withLevels(List<List<FileMeta>> newLevels) {
        return new ManifestState(nextFileNumber, lastSequence, logNumber, tables, newLevels, valueFiles);
    }

    ManifestState withLog(long newLogNumber, long newLastSequence) {
        return new ManifestState(nextFileNumber, Math.max(lastSequence, newLastSequence), newLogNumber, tables, levels,
                valueFiles);
    }

    ManifestState withValueFiles(Map<Long, Long> newValueFiles) {
        return new ManifestState(nextFileNumber, lastSequence, logNumber, tables, levels,
                Map.copyOf(new TreeMap<>(newValueFiles)));
    }

    byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(encodedSizeBound());
        Varint.putLong(out, nextFileNumber);
        Varint.putLong(out, lastSequence);
        Varint.putLong(out, logNumber);
        Varint.putLong(out, tables.size());
        for (Map.Entry<String, Integer> e : new TreeMap<>(tables).entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            Varint.putLong(out, name.length);
            out.put(name);
            Varint.putLong(out, e.getValue());
        }
        Varint.putLong(out, levels.size());
        for (List<FileMeta> level : levels) {
            Varint.putLong(out, level.size());
            for (FileMeta f : level) {
                Varint.putLong(out, f.number());
                Varint.putLong(out, f.size());
                Varint.putLong(out, f.entries());
                Varint.putLong(out, f.smallest().length);
                out.put(f.smallest());
                Varint.putLong(out, f.largest().length);
                out.put(f.largest());
            }
        }
        Varint.putLong(out, valueFiles.size());
        for (Map.Entry<Long, Long> e : new TreeMap<>(valueFiles).entrySet()) {
            Varint.putLong(out, e.getKey());
            Varint.putLong(out, e.getValue());
        }
        byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return bytes;
    }

    private int encodedSizeBound() {
        int size = 64;
        for (String name : tables.keySet()) {
            size += 20 + name.length() * 4;
        }
        for (List<FileMeta> level : levels) {
            size += 10;
            for (FileMeta f : level) {
                size += 60 + f.smallest().length + f.largest().length;
            }
        }
        return size + valueFiles.size() * 20;
    }

    static ManifestState decode(byte[] payload, String where) throws CorruptionException {
        try {
            ByteBuffer in = ByteBuffer.wrap(payload);
            long next = Varint.getLong(in);
            long lastSeq = Varint.getLong(in);
            long log = Varint.getLong(in);
            int tableCount = Varint.getInt(in);
            Map<String, Integer> tables = new LinkedHashMap<>();
            for (int i = 0; i < tableCount; i++) {
                byte[] name = new byte[Varint.getLength(in)];
                in.get(name);
                tables.put(new String(name, StandardCharsets.UTF_8), Varint.getInt(in));
            }
            int levelCount = Varint.getInt(in);
            if (levelCount > MAX_LEVELS) {
                throw new CorruptionException("manifest " + where + " has " + levelCount + " levels");
            }
            List<List<FileMeta>> levels = new ArrayList<>();
            for (int l = 0; l < MAX_LEVELS; l++) {
                List<FileMeta> files = new ArrayList<>();
                int count = l < levelCount ? Varint.getInt(in) : 0;
                for (int i = 0; i < count; i++) {
                    long number = Varint.getLong(in);
                    long size = Varint.getLong(in);
                    long entries = Varint.getLong(in);
                    byte[] smallest = new byte[Varint.getLength(in)];
                    in.get(smallest);
                    byte[] largest = new byte[Varint.getLength(in)];
                    in.get(largest);
                    if (smallest.length < MIN_INTERNAL_KEY_BYTES || largest.length < MIN_INTERNAL_KEY_BYTES) {
                        throw new CorruptionException("manifest " + where + ": table " + number
                                + " has a key bound shorter than an internal key");
                    }
                    files.add(new FileMeta(number, size, entries, smallest, largest));
                }
                levels.add(List.copyOf(files));
            }
            int valueCount = Varint.getInt(in);
            Map<Long, Long> values = new TreeMap<>();
            for (int i = 0; i < valueCount; i++) {
                values.put(Varint.getLong(in), Varint.getLong(in));
            }
            if (in.hasRemaining()) {
                throw new CorruptionException("trailing bytes in manifest " + where);
            }
            return new ManifestState(next, lastSeq, log, Map.copyOf(tables), List.copyOf(levels), Map.copyOf(values));
        } catch (RuntimeException e) {
            throw new CorruptionException("malformed manifest " + where + ": " + e);
        }
    }
}
