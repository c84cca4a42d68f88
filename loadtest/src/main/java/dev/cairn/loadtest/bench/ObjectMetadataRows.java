package dev.cairn.loadtest.bench;

import dev.cairn.engine.Row;
import java.nio.charset.StandardCharsets;

/**
 * The metadata row of an S3 object as the store keeps it, keyed by {@code bucket/key}: columns
 * named and typed as the service's object rows (docs/object-stores.md, "Object rows"). Hashes are
 * fixed-width binary (SHA-256 32 bytes, the MD5 ETag 16 bytes), size and time unsigned integers,
 * the rest text. Every row has the content hash,
 * length, ETag, content type and modification time; some also carry cache-control (40%),
 * content-disposition (10%), content-encoding (5%, with an SVG type) and up to three user
 * metadata keys (half the rows), so a table holds a few dozen column sets, as a real bucket does.
 * Row {@code i} is a pure function of (seed, i).
 *
 * <p>Thread-safety: immutable.
 */
public final class ObjectMetadataRows {

    private static final long SALT = 0x6d65746164617461L;
    private static final String BUCKET = "photos/";
    private static final String[] IMAGE_TYPES = {"image/jpeg", "image/jpeg", "image/jpeg", "image/png", "image/webp"};
    private static final String[] CACHE_CONTROLS = {"public, max-age=31536000, immutable", "max-age=86400"};
    private static final String[] CAMERAS = {"Canon EOS R5", "NIKON Z 6_2", "iPhone 15 Pro", "Pixel 8"};
    private static final long EPOCH_2024_MILLIS = 1_704_067_200_000L;

    private final long seed;
    private final ImageWorkload images;

    public ObjectMetadataRows(long seed) {
        this.seed = seed;
        this.images = new ImageWorkload(seed, ImageSizeDistribution.images());
    }

    public byte[] key(long index) {
        byte[] object = images.key(index);
        byte[] key = new byte[BUCKET.length() + object.length];
        System.arraycopy(BUCKET.getBytes(StandardCharsets.US_ASCII), 0, key, 0, BUCKET.length());
        System.arraycopy(object, 0, key, BUCKET.length(), object.length);
        return key;
    }

    public Row row(long index) {
        long choice = bits(index, 0);
        boolean svg = (choice & 0xff) < 13;
        Row.Builder row = Row.builder()
                .fixed("content-sha256", bytes(index, 1, 32))
                .uint("content-length", images.valueSize(index, 0))
                .fixed("etag", etag(index))
                .text("content-type", svg ? "image/svg+xml" : IMAGE_TYPES[(int) ((choice >>> 8) % IMAGE_TYPES.length)])
                .uint("last-modified", EPOCH_2024_MILLIS + Long.remainderUnsigned(bits(index, 2), 365L * 86_400_000L));
        if (svg) {
            row.text("content-encoding", "gzip");
        }
        if (((choice >>> 16) & 0xff) < 102) {
            row.text("cache-control", CACHE_CONTROLS[(int) ((choice >>> 24) & 1)]);
        }
        if (((choice >>> 32) & 0xff) < 26) {
            row.text("content-disposition", "inline; filename=\"IMG_" + (1000 + index % 9000) + ".jpg\"");
        }
        int user = (int) ((choice >>> 40) & 0xff);
        if (user < 128) {
            row.text("x-amz-meta-uploaded-by", "user-" + (1000 + (choice >>> 48) % 9000));
        }
        if (user < 51) {
            row.text("x-amz-meta-original-name", "IMG_2024" + String.format("%04d_%06d", (choice >>> 52) % 1232,
                    index % 1_000_000) + ".jpg");
        }
        if (user < 13) {
            row.text("x-amz-meta-camera", CAMERAS[(int) ((choice >>> 56) % CAMERAS.length)]);
        }
        return row.build();
    }

    /** The ETag column of row {@code index}, to check a read cheaply. */
    public byte[] etag(long index) {
        return bytes(index, 3, 16);
    }

    private long bits(long index, long part) {
        return Mix.mix(seed, index, part, SALT);
    }

    private byte[] bytes(long index, long part, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i += 8) {
            long b = bits(index, part * 64 + i / 8);
            for (int j = i; j < Math.min(length, i + 8); j++) {
                out[j] = (byte) b;
                b >>>= 8;
            }
        }
        return out;
    }
}
