package dev.cairn.service.console;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Thumbnails by (content SHA-256, size), each computed once per content: in memory (Caffeine,
 * bounded by bytes), then on disk under {@code dir} ({@code ab/<sha256>-<size>.jpg}, written
 * to a temporary name and renamed, so a reader never sees half a file), else made by the
 * {@link Thumbnailer}. Concurrent requests for the same key wait for the one computation: the
 * first request puts a future in the map and computes on its own thread, holding no lock of the
 * map (so other keys are never held up); the others wait on that future. A failed computation
 * leaves the map, so the next request tries again. Refusals are remembered in memory too, so a
 * bomb is looked at once.
 *
 * <p>Thread-safe.
 */
public final class ThumbnailCache {
    /** The sizes served; any other would let a client fill the cache with variants. */
    public static final int[] SIZES = {128, 256, 512};

    /** A thumbnail's bytes, or why there is none. */
    public record Result(byte[] jpeg, String refusal) {
        int weight() {
            return 64 + (jpeg == null ? refusal.length() : jpeg.length);
        }
    }

    /** Opens the image's bytes; called at most once per computation. */
    @FunctionalInterface
    public interface Source {
        InputStream open() throws IOException;
    }

    private final Thumbnailer thumbnailer;
    private final Path dir;
    private final AsyncCache<String, Result> memory;
    private final AtomicLong computed = new AtomicLong();
    private final AtomicLong diskHits = new AtomicLong();

    public ThumbnailCache(Thumbnailer thumbnailer, Path dir, long memoryBytes) {
        this.thumbnailer = thumbnailer;
        this.dir = dir;
        this.memory = Caffeine.newBuilder().maximumWeight(memoryBytes)
                .weigher((String k, Result r) -> r.weight()).buildAsync();
    }

    public static boolean isServedSize(int size) {
        for (int s : SIZES) {
            if (s == size) {
                return true;
            }
        }
        return false;
    }

    /** The thumbnail of the content {@code sha256} at {@code size}, computed from {@code source} if need be. */
    public Result get(String sha256, int size, Source source) throws IOException {
        if (!isServedSize(size) || !dev.cairn.store.Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("no thumbnail of size " + size + " for " + sha256);
        }
        String key = sha256 + "-" + size;
        CompletableFuture<Result> mine = new CompletableFuture<>();
        CompletableFuture<Result> theirs = memory.asMap().putIfAbsent(key, mine);
        if (theirs != null) {
            try {
                return theirs.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
        }
        try {
            Result r = load(sha256, size, source);
            mine.complete(r);
            return r;
        } catch (IOException | RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /** Whether stored content is still held by some object or part. */
    public interface ContentCheck {
        boolean held(String sha256) throws IOException;
    }

    /**
     * Removes the thumbnails of content no object holds any more, from disk and memory, and
     * temporary files left by a crash; returns the thumbnails removed. A thumbnail of content
     * stored again later is simply made again.
     */
    public int sweep(ContentCheck check) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int removed = 0;
        long staleTemp = System.currentTimeMillis() - java.util.concurrent.TimeUnit.HOURS.toMillis(1);
        java.util.Map<String, Boolean> held = new java.util.HashMap<>();
        try (java.nio.file.DirectoryStream<Path> shards = Files.newDirectoryStream(dir)) {
            for (Path shard : shards) {
                if (!Files.isDirectory(shard)) {
                    continue;
                }
                try (java.nio.file.DirectoryStream<Path> files = Files.newDirectoryStream(shard)) {
                    for (Path f : files) {
                        String name = f.getFileName().toString();
                        if (name.endsWith(".tmp")) {
                            if (Files.getLastModifiedTime(f).toMillis() < staleTemp) {
                                Files.deleteIfExists(f);
                            }
                            continue;
                        }
                        int dash = name.indexOf('-');
                        String sha = dash > 0 ? name.substring(0, dash) : "";
                        if (!dev.cairn.store.Hex.isSha256(sha) || !name.endsWith(".jpg")) {
                            continue;
                        }
                        Boolean keep = held.get(sha);
                        if (keep == null) {
                            keep = check.held(sha);
                            held.put(sha, keep);
                        }
                        if (!keep) {
                            memory.asMap().remove(name.substring(0, name.length() - ".jpg".length()));
                            Files.deleteIfExists(f);
                            removed++;
                        }
                    }
                }
            }
        }
        return removed;
    }

    /** Thumbnails made since start (not read from memory or disk). */
    public long computed() {
        return computed.get();
    }

    public long diskHits() {
        return diskHits.get();
    }

    private Result load(String sha256, int size, Source source) throws IOException {
        Path file = dir.resolve(sha256.substring(0, 2)).resolve(sha256 + "-" + size + ".jpg");
        if (Files.isRegularFile(file)) {
            diskHits.incrementAndGet();
            return new Result(Files.readAllBytes(file), null);
        }
        computed.incrementAndGet();
        byte[] jpeg;
        try (InputStream in = source.open()) {
            jpeg = thumbnailer.thumbnail(in, size);
        } catch (Thumbnailer.Refused r) {
            return new Result(null, r.getMessage());
        }
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), sha256, ".tmp");
        try {
            Files.write(tmp, jpeg);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        return new Result(jpeg, null);
    }
}
