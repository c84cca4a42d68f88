package dev.cairn.service.variants;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rendered variants on disk, one file per variant named by its source's SHA-256, its key and its
 * format ({@code <source>-<key>.<fm>}), within a byte budget: past it the least recently used go. Files are
 * written whole under a temporary name and renamed, so a crash leaves no partial variant; at
 * start the directory is read back (oldest first), so variants survive a restart. The most used
 * are also kept in memory, within a budget of their own, so that a hot variant costs no disk read.
 * Thread-safe.
 */
final class VariantCache {
    record Entry(OutputFormat format, byte[] bytes) {
    }

    private record Slot(String source, OutputFormat format, long size) {
    }

    /** Whether stored content is still held by some object or part. */
    interface ContentCheck {
        boolean held(String sha256) throws IOException;
    }

    private final Path dir;
    private final long budget;
    private final com.github.benmanes.caffeine.cache.Cache<String, Entry> memory;
    private final LinkedHashMap<String, Slot> slots = new LinkedHashMap<>(256, 0.75f, true);
    private long bytes;

    VariantCache(Path dir, long budget, long memoryBudget) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.budget = budget;
        this.memory = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumWeight(memoryBudget)
                .executor(Runnable::run)
                .<String, Entry>weigher((k, e) -> e.bytes.length + 128).build();
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                files.add(p);
            }
        }
        files.sort((a, b) -> lastModified(a).compareTo(lastModified(b)));
        for (Path p : files) {
            String name = p.getFileName().toString();
            int dot = name.indexOf('.');
            OutputFormat f = dot < 0 ? null : OutputFormat.ofParam(name.substring(dot + 1));
            if (f == null || !name.substring(0, dot).matches("[0-9a-f]{64}-[0-9a-f]{64}")) {
                Files.deleteIfExists(p); // a temporary file of an interrupted write
                continue;
            }
            long size = Files.size(p);
            slots.put(name.substring(65, dot), new Slot(name.substring(0, 64), f, size));
            bytes += size;
        }
        evict();
    }

    /** The variant of {@code key} when it is in memory; null otherwise. Never blocks. */
    Entry inMemory(String key) {
        return memory.getIfPresent(key);
    }

    /** The variant of {@code key}; null when not kept. */
    Entry get(String key) throws IOException {
        Entry m = memory.getIfPresent(key);
        if (m != null) {
            return m;
        }
        Slot s;
        synchronized (this) {
            s = slots.get(key);
        }
        if (s == null) {
            return null;
        }
        try {
            Entry e = new Entry(s.format, Files.readAllBytes(file(key, s)));
            memory.put(key, e);
            return e;
        } catch (NoSuchFileException e) {
            return null; // evicted meanwhile
        }
    }

    /** Keeps a variant of the content {@code source}; a budget of 0 keeps none. */
    void put(String source, String key, OutputFormat format, byte[] variant) throws IOException {
        memory.put(key, new Entry(format, variant));
        if (variant.length > budget) {
            return;
        }
        Slot slot = new Slot(source, format, variant.length);
        Path tmp = dir.resolve(key + ".tmp-" + Thread.currentThread().getId());
        Files.write(tmp, variant);
        try {
            Files.move(tmp, file(key, slot), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file(key, slot), StandardCopyOption.REPLACE_EXISTING);
        }
        synchronized (this) {
            Slot old = slots.put(key, slot);
            bytes += variant.length - (old == null ? 0 : old.size);
            evict();
        }
    }

    synchronized long bytes() {
        return bytes;
    }

    synchronized int count() {
        return slots.size();
    }

    private synchronized void evict() {
        Iterator<Map.Entry<String, Slot>> it = slots.entrySet().iterator();
        while (bytes > budget && it.hasNext()) {
            Map.Entry<String, Slot> e = it.next();
            try {
                Files.deleteIfExists(file(e.getKey(), e.getValue()));
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            bytes -= e.getValue().size;
            it.remove();
        }
    }

    private Path file(String key, Slot slot) {
        return dir.resolve(slot.source + "-" + key + "." + slot.format.param());
    }

    /**
     * Removes the variants of content no object holds any more, from disk and memory; returns how
     * many. A variant of content stored again later is simply rendered again.
     */
    int sweep(ContentCheck check) throws IOException {
        Map<String, Slot> all;
        synchronized (this) {
            all = new java.util.HashMap<>(slots);
        }
        Map<String, Boolean> held = new java.util.HashMap<>();
        int removed = 0;
        for (Map.Entry<String, Slot> e : all.entrySet()) {
            Boolean keep = held.get(e.getValue().source);
            if (keep == null) {
                keep = check.held(e.getValue().source);
                held.put(e.getValue().source, keep);
            }
            if (!keep) {
                synchronized (this) {
                    if (slots.remove(e.getKey(), e.getValue())) {
                        bytes -= e.getValue().size;
                        removed++;
                    }
                }
                memory.invalidate(e.getKey());
                Files.deleteIfExists(file(e.getKey(), e.getValue()));
            }
        }
        return removed;
    }

    private static java.nio.file.attribute.FileTime lastModified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return java.nio.file.attribute.FileTime.fromMillis(0);
        }
    }
}
