package dev.cairn.service.s3;

import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request body read to its end while SHA-256, MD5 and any requested checksums are computed:
 * held in memory up to a threshold while a budget shared by all bodies lasts ({@link Spool}),
 * beyond it in a temporary file that {@link #close()} deletes. Memory per body is bounded by the
 * threshold plus one buffer, whatever the body's size, and memory held by all bodies together by
 * the budget; {@link #close()} gives it back.
 *
 * <p>Not thread-safe while being read; afterwards {@link #open()} may be called from any thread,
 * {@link #close()} from one.
 */
public final class SpooledBody implements ContentSource, AutoCloseable {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final byte[] memory;
    private final Path file;
    private final long size;
    private final String sha256;
    private final String md5;
    private final byte[] md5Bytes;
    private final Map<String, String> checksums;
    private final MemoryBudget budget;
    private long reserved;

    private SpooledBody(byte[] memory, Path file, long size, String sha256, byte[] md5Bytes, Map<String, String> checksums,
                        MemoryBudget budget, long reserved) {
        this.budget = budget;
        this.reserved = reserved;
        this.memory = memory;
        this.file = file;
        this.size = size;
        this.sha256 = sha256;
        this.md5Bytes = md5Bytes;
        this.md5 = Hex.encode(md5Bytes);
        this.checksums = checksums;
    }

    /**
     * Reads {@code in} to its end.
     *
     * @param expected the declared length, or -1; a shorter body is IncompleteBody
     * @param maxSize  a longer body is EntityTooLarge (reading stops there)
     * @param spool    the per-body threshold and shared budget of memory, and where the rest goes
     */
    public static SpooledBody read(InputStream in, long expected, long maxSize, Spool spool,
                                   List<ChecksumSink> sinks) throws IOException, S3Exception {
        if (expected > maxSize) {
            throw new S3Exception(S3Error.ENTITY_TOO_LARGE);
        }
        MessageDigest sha = digest("SHA-256");
        MessageDigest md5 = digest("MD5");
        MemoryBudget budget = spool.budget();
        if (expected >= 0 && expected <= spool.threshold() && budget.tryReserve(expected)) {
            boolean ok = false;
            try {
                SpooledBody body = readDeclared(in, (int) expected, maxSize, sha, md5, sinks, budget);
                ok = true;
                return body;
            } finally {
                if (!ok) {
                    budget.release(expected);
                }
            }
        }
        // Memory for a body of unknown length is reserved whole up front: growing it later could fail.
        long reserved = expected < 0 && spool.threshold() > 0 && budget.tryReserve(spool.threshold())
                ? spool.threshold() : 0;
        ByteArrayOutputStream mem = new ByteArrayOutputStream((int) Math.min(reserved, 8192));
        Path file = null;
        OutputStream fileOut = null;
        long total = 0;
        boolean ok = false;
        try {
            byte[] buf = new byte[(int) Math.min(BUFFER_BYTES, Math.max(expected + 1, 8192))];
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (n == 0) {
                    continue;
                }
                total += n;
                if (total > maxSize) {
                    throw new S3Exception(S3Error.ENTITY_TOO_LARGE);
                }
                update(buf, 0, n, sha, md5, sinks);
                if (fileOut == null && total > reserved) {
                    Files.createDirectories(spool.dir());
                    file = Files.createTempFile(spool.dir(), "upload-", ".spool");
                    fileOut = Files.newOutputStream(file);
                    mem.writeTo(fileOut);
                    mem = null;
                    budget.release(reserved);
                    reserved = 0;
                }
                if (fileOut != null) {
                    fileOut.write(buf, 0, n);
                } else {
                    mem.write(buf, 0, n);
                }
            }
            if (expected >= 0 && total != expected) {
                throw new S3Exception(S3Error.INCOMPLETE_BODY);
            }
            if (fileOut != null) {
                fileOut.close();
                fileOut = null;
            }
            Map<String, String> values = new LinkedHashMap<>();
            for (ChecksumSink s : sinks) {
                values.put(s.algorithm(), s.base64());
            }
            // A body that ended in memory keeps what it holds and gives back the rest.
            budget.release(reserved - (file == null ? total : 0));
            reserved = file == null ? total : 0;
            SpooledBody body = new SpooledBody(file == null ? mem.toByteArray() : null, file, total,
                    Hex.encode(sha.digest()), md5.digest(), values, budget, reserved);
            ok = true;
            return body;
        } finally {
            if (fileOut != null) {
                try {
                    fileOut.close();
                } catch (IOException ignored) {
                    // the read already failed; the file goes below
                }
            }
            if (!ok) {
                budget.release(reserved);
                if (file != null) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /**
     * A body of a declared length small enough for memory, read straight into an array of that
     * length: no buffer to copy through, no growing.
     */
    private static SpooledBody readDeclared(InputStream in, int expected, long maxSize, MessageDigest sha,
                                            MessageDigest md5, List<ChecksumSink> sinks, MemoryBudget budget)
            throws IOException, S3Exception {
        byte[] data = new byte[expected];
        int filled = 0;
        while (filled < expected) {
            int n = in.read(data, filled, expected - filled);
            if (n < 0) {
                throw new S3Exception(S3Error.INCOMPLETE_BODY);
            }
            update(data, filled, n, sha, md5, sinks);
            filled += n;
        }
        // Read to the end: an aws-chunked body checks its last chunk and trailers there.
        byte[] more = new byte[1];
        long total = expected;
        int n;
        while ((n = in.read(more)) >= 0) {
            total += n;
            if (total > maxSize) {
                throw new S3Exception(S3Error.ENTITY_TOO_LARGE);
            }
        }
        if (total != expected) {
            throw new S3Exception(S3Error.INCOMPLETE_BODY);
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (ChecksumSink s : sinks) {
            values.put(s.algorithm(), s.base64());
        }
        return new SpooledBody(data, null, expected, Hex.encode(sha.digest()), md5.digest(), values, budget, expected);
    }

    private static void update(byte[] data, int offset, int length, MessageDigest sha, MessageDigest md5,
                               List<ChecksumSink> sinks) {
        sha.update(data, offset, length);
        md5.update(data, offset, length);
        for (ChecksumSink s : sinks) {
            s.update(data, offset, length);
        }
    }

    /** An in-memory body (copies, small sources). */
    public static SpooledBody ofBytes(byte[] data) {
        MessageDigest sha = digest("SHA-256");
        MessageDigest md5 = digest("MD5");
        return new SpooledBody(data, null, data.length, Hex.encode(sha.digest(data)), md5.digest(data), Map.of(),
                null, 0);
    }

    @Override
    public String sha256() {
        return sha256;
    }

    @Override
    public String md5() {
        return md5;
    }

    public String md5Base64() {
        return java.util.Base64.getEncoder().encodeToString(md5Bytes);
    }

    @Override
    public long size() {
        return size;
    }

    /** The checksums computed, by algorithm name, base64. */
    public Map<String, String> checksums() {
        return checksums;
    }

    @Override
    public byte[] inMemory() {
        return memory;
    }

    @Override
    public InputStream open() throws IOException {
        return memory != null ? new ByteArrayInputStream(memory) : Files.newInputStream(file);
    }

    /** Deletes the file, or gives the memory held back to the budget; once. */
    @Override
    public void close() throws IOException {
        if (budget != null && reserved > 0) {
            budget.release(reserved);
            reserved = 0;
        }
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from this JDK", e);
        }
    }
}
