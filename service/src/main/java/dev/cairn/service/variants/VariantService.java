package dev.cairn.service.variants;

import com.sun.jna.Memory;
import dev.cairn.service.config.VariantsProperties;
import dev.cairn.service.s3.S3Error;
import dev.cairn.service.s3.S3Exception;
import dev.cairn.service.s3.S3Request;
import dev.cairn.service.s3.VariantRoute;
import dev.cairn.store.ContentRead;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Image variants of GETs ({@code ?w=320&fm=webp&s=…}, docs/variants.md): checks who may ask
 * ({@link VariantAccess}), names the variant by its source's SHA-256 and its normalised options,
 * answers it from the disk cache ({@link VariantCache}), or renders it once however many ask at
 * the same moment ({@link SingleFlight}) within the bound on concurrent renders and the limits
 * on sources ({@link VipsRenderer}). Thread-safe.
 */
public final class VariantService implements VariantRoute, AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(VariantService.class);
    /** The query parameters that make a GET a variant request. */
    static final Set<String> PARAMETERS = Set.of("w", "h", "fit", "crop", "q", "fm", "auto", "dpr", "s", "preset");
    /** How long a render waits for a turn before the request is answered 503 SlowDown. */
    private static final long TURN_WAIT_SECONDS = 10;

    private final VariantsProperties props;
    private final VariantAccess access;
    private final VariantCache cache;
    private final SingleFlight<VariantCache.Entry> flights = new SingleFlight<>();
    private final Semaphore turns;
    private volatile VipsRenderer renderer;
    private final java.util.concurrent.ScheduledExecutorService sweeper;

    /**
     * Variants kept under {@code cacheDir}; those of content {@code store} no longer holds are
     * removed every {@code cairn.variants.sweep-interval}, on one daemon thread.
     */
    public VariantService(VariantsProperties props, Path cacheDir, dev.cairn.store.ObjectStore store) throws IOException {
        this.props = props;
        this.access = new VariantAccess(props);
        this.cache = new VariantCache(cacheDir, props.getCacheSize().toBytes(), props.getMemoryCacheSize().toBytes());
        this.turns = new Semaphore(props.getMaxConcurrentRenders(), true);
        long ms = props.getSweepInterval().toMillis();
        if (ms <= 0) {
            sweeper = null;
            return;
        }
        sweeper = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "variant-sweep");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(() -> sweep(store), ms, ms, TimeUnit.MILLISECONDS);
    }

    /** Removes the variants of content no object holds any more; returns how many. */
    int sweep(dev.cairn.store.ObjectStore store) {
        try {
            int removed = cache.sweep(sha -> {
                try (ContentRead r = store.getContent(sha)) {
                    return r != null;
                }
            });
            if (removed > 0) {
                LOG.info("removed {} variants of deleted content", removed);
            }
            return removed;
        } catch (IOException | RuntimeException e) {
            // The store unreachable for a while: nothing more is removed, the next sweep tries again.
            LOG.warn("variant sweep stopped: {}", e.toString());
            return 0;
        }
    }

    @Override
    public void close() {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
    }

    @Override
    public boolean asksForVariant(S3Request r) {
        for (String p : PARAMETERS) {
            if (r.hasParam(p)) {
                return true;
            }
        }
        return false;
    }

    /** A request's options and the name of its variant, the format resolved as far as the request says. */
    private record Named(VariantOptions options, OutputFormat format, boolean byAccept, String key) {
    }

    private Named name(S3Request r, String sourceSha256) throws S3Exception {
        VariantOptions o = access.options(r);
        OutputFormat format = o.format();
        boolean byAccept = false;
        if (format == null && o.autoFormat()) {
            format = fromAccept(r.header("Accept"));
            byAccept = true;
        }
        return new Named(o, format, byAccept, key(sourceSha256, o.normalised(format)));
    }

    @Override
    public boolean inMemory(S3Request r, String sourceSha256) {
        try {
            return cache.inMemory(name(r, sourceSha256).key) != null;
        } catch (S3Exception e) {
            return false;
        }
    }

    @Override
    public Variant variant(S3Request r, String sourceSha256, ContentRead source, boolean mayBlock)
            throws IOException, S3Exception {
        Named n = name(r, sourceSha256);
        VariantCache.Entry e = mayBlock ? cache.get(n.key) : cache.inMemory(n.key);
        if (e == null && !mayBlock) {
            return null;
        }
        if (e == null) {
            try {
                e = flights.run(n.key, () -> {
                    VariantCache.Entry again = cache.get(n.key);
                    return again != null ? again : render(sourceSha256, source, n.options, n.format, n.key);
                });
            } catch (RenderRefused refused) {
                throw refused.toS3();
            } catch (IOException | S3Exception | RuntimeException ex) {
                throw ex;
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        }
        return new Variant(e.bytes(), e.format().contentType, n.key, n.byAccept);
    }

    private VariantCache.Entry render(String sourceSha256, ContentRead source, VariantOptions o, OutputFormat requested, String key)
            throws IOException, S3Exception, RenderRefused, InterruptedException {
        long size = source.size();
        if (size > props.getMaxSourceSize().toBytes()) {
            throw RenderRefused.tooLarge("the source is " + size + " bytes, more than the " + props.getMaxSourceSize()
                    + " variants are made of");
        }
        if (size == 0) {
            throw RenderRefused.invalidImage("the object is empty");
        }
        if (!turns.tryAcquire(TURN_WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new S3Exception(S3Error.SLOW_DOWN, "Too many variants are being rendered at once.");
        }
        try {
            VipsRenderer vips = renderer();
            Memory src = new Memory(size);
            try (InputStream in = source.open(0, size)) {
                byte[] buf = new byte[64 * 1024];
                long at = 0;
                for (int n; at < size && (n = in.read(buf, 0, (int) Math.min(buf.length, size - at))) > 0; at += n) {
                    src.write(at, buf, 0, n);
                }
                if (at != size) {
                    throw new IOException("content ended " + (size - at) + " bytes early");
                }
            }
            try {
                SourceImage image = vips.probe(src);
                if (image.pixels() > props.getMaxSourcePixels()) {
                    throw RenderRefused.tooLarge("the image has " + image.width() + "x" + image.height()
                            + " pixels, more than the " + props.getMaxSourcePixels() + " variants are made of");
                }
                if (image.pages() > 1) {
                    throw RenderRefused.invalidImage("the image is animated (" + image.pages()
                            + " frames); variants are made of still images only");
                }
                OutputFormat format = requested != null ? requested : OutputFormat.ofLoader(image.loader());
                byte[] bytes = vips.render(src, image, o, format);
                cache.put(sourceSha256, key, format, bytes);
                return new VariantCache.Entry(format, bytes);
            } finally {
                src.close();
            }
        } finally {
            turns.release();
        }
    }

    private VipsRenderer renderer() throws S3Exception {
        VipsRenderer r = renderer;
        if (r == null) {
            try {
                r = new VipsRenderer();
            } catch (IllegalStateException e) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, e.getMessage());
            }
            renderer = r;
        }
        return r;
    }

    /** AVIF where the client takes it, else WebP where it takes that; else null (the source's format). */
    static OutputFormat fromAccept(String accept) {
        if (accept == null) {
            return null;
        }
        String a = accept.toLowerCase(Locale.ROOT);
        return a.contains("image/avif") ? OutputFormat.AVIF : a.contains("image/webp") ? OutputFormat.WEBP : null;
    }

    /** A variant's name: the hex SHA-256 of its source's SHA-256 and its normalised options. */
    static String key(String sourceSha256, String normalised) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest((sourceSha256 + "\n" + normalised).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
