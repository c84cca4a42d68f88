package dev.cairn.backup.target;

import dev.cairn.store.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An archive under a prefix of an S3 bucket. A PutObject is atomic by itself: the object appears
 * complete or not at all. Each put carries the SHA-256 of its bytes
 * ({@code x-amz-checksum-sha256}) so that the server refuses a damaged transfer. Bytes are
 * spooled (memory up to {@link #MEMORY_SPOOL_BYTES}, else a temporary file) before the upload,
 * so the upload starts only after the source stream was read and checked to its end.
 */
public final class S3Target implements Target {
    static final int MEMORY_SPOOL_BYTES = 8 << 20;

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final String description;

    public S3Target(S3Client s3, String bucket, String prefix, String endpoint) throws IOException {
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
        this.description = "s3://" + bucket + "/" + this.prefix + (endpoint == null ? "" : " at " + endpoint);
        call("cannot reach the bucket", () -> s3.headBucket(b -> b.bucket(bucket)));
    }

    @Override
    public String describe() {
        return description;
    }

    private String key(String name) {
        return prefix + name;
    }

    @Override
    public long size(String name) throws IOException {
        try {
            return call("cannot stat " + name, () -> s3.headObject(b -> b.bucket(bucket).key(key(name)))).contentLength();
        } catch (NotFound e) {
            return -1;
        }
    }

    @Override
    public InputStream open(String name, long offset) throws IOException {
        try {
            return call("cannot read " + name, () -> s3.getObject(b -> {
                b.bucket(bucket).key(key(name));
                if (offset > 0) {
                    b.range("bytes=" + offset + "-");
                }
            }));
        } catch (NotFound e) {
            return null;
        }
    }

    /** One ranged GET: a blob inside a pack. */
    @Override
    public InputStream open(String name, long offset, long length) throws IOException {
        if (length <= 0) {
            return InputStream.nullInputStream();
        }
        try {
            return call("cannot read " + name, () -> s3.getObject(b -> b.bucket(bucket).key(key(name))
                    .range("bytes=" + offset + "-" + (offset + length - 1))));
        } catch (NotFound e) {
            return null;
        }
    }

    /**
     * Spools to a local temporary file, computing its CRC32C as it goes; {@link Staged#commit()}
     * is one PutObject carrying that checksum ({@code x-amz-checksum-crc32c}), durable when it
     * returns. CRC32C rather than SHA-256: a pack's blobs were each hashed on their way in, and a
     * second SHA-256 over the whole pack would double the hashing.
     */
    @Override
    public Staged stage(String name) throws IOException {
        Path spool = Files.createTempFile("cairn-backup-pack", ".spool");
        OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(spool), 1 << 16);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        return new Staged() {
            private long size;
            private boolean closed;

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                out.write(bytes, offset, length);
                crc.update(bytes, offset, length);
                size += length;
            }

            @Override
            public long size() {
                return size;
            }

            @Override
            public void commit() throws IOException {
                out.close();
                int value = (int) crc.getValue();
                String checksum = base64(new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8),
                        (byte) value});
                PutObjectRequest req = PutObjectRequest.builder().bucket(bucket).key(key(name))
                        .checksumCRC32C(checksum).build();
                call("cannot write " + name, () -> s3.putObject(req, RequestBody.fromFile(spool)));
            }

            @Override
            public void close() throws IOException {
                if (!closed) {
                    closed = true;
                    out.close();
                    Files.deleteIfExists(spool);
                }
            }
        };
    }

    @Override
    public void put(String name, InputStream in, long size) throws IOException {
        MessageDigest sha = sha256();
        spoolAndUpload(name, new DigestInputStream(in, sha), size, () -> base64(sha.digest()));
    }

    /** The stream checks the bytes against {@code sha256Hex} itself: no second hash here. */
    @Override
    public void putChecked(String name, InputStream in, long size, String sha256Hex) throws IOException {
        spoolAndUpload(name, in, size, () -> base64(Hex.decode(sha256Hex)));
    }

    /** Reads {@code in} to its end (so that a checking stream has thrown) before anything is sent. */
    private void spoolAndUpload(String name, InputStream in, long size, Supplier<String> checksum)
            throws IOException {
        if (size <= MEMORY_SPOOL_BYTES) {
            byte[] bytes = in.readAllBytes();
            upload(name, RequestBody.fromBytes(bytes), checksum.get(), null);
            return;
        }
        Path spool = Files.createTempFile("cairn-backup-spool", ".bin");
        try {
            try (OutputStream out = Files.newOutputStream(spool)) {
                in.transferTo(out);
            }
            upload(name, RequestBody.fromFile(spool), checksum.get(), null);
        } finally {
            Files.deleteIfExists(spool);
        }
    }

    private static String base64(byte[] digest) {
        return Base64.getEncoder().encodeToString(digest);
    }

    @Override
    public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
        MessageDigest sha = sha256();
        sha.update(bytes);
        try {
            upload(name, RequestBody.fromBytes(bytes), base64(sha.digest()), "*");
            return true;
        } catch (PreconditionFailed e) {
            return false;
        }
    }

    private void upload(String name, RequestBody body, String sha256Base64, String ifNoneMatch) throws IOException {
        PutObjectRequest.Builder req = PutObjectRequest.builder().bucket(bucket).key(key(name))
                .checksumSHA256(sha256Base64);
        if (ifNoneMatch != null) {
            req.ifNoneMatch(ifNoneMatch);
        }
        call("cannot write " + name, () -> s3.putObject(req.build(), body));
    }

    @Override
    public void list(String listPrefix, EntryVisitor visitor) throws IOException {
        String token = null;
        do {
            String t = token;
            var page = call("cannot list " + listPrefix, () -> s3.listObjectsV2(b -> b.bucket(bucket)
                    .prefix(key(listPrefix)).continuationToken(t).maxKeys(1000)));
            for (S3Object o : page.contents()) {
                visitor.visit(new Entry(o.key().substring(prefix.length()), o.size(),
                        o.lastModified() == null ? 0 : o.lastModified().toEpochMilli()));
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
    }

    @Override
    public void delete(String name) throws IOException {
        call("cannot delete " + name, () -> s3.deleteObject(b -> b.bucket(bucket).key(key(name))));
    }

    @Override
    public void sync() {
    }

    @Override
    public void close() {
        s3.close();
    }

    private <T> T call(String what, Supplier<T> request) throws IOException {
        try {
            return request.get();
        } catch (NoSuchKeyException e) {
            throw new NotFound();
        } catch (S3Exception e) {
            int status = e.statusCode();
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if (status == 404 && !"NoSuchBucket".equals(code)) {
                throw new NotFound();
            }
            if (status == 412) {
                throw new PreconditionFailed();
            }
            throw new IOException(description + ": " + what + ": " + explain(status, code) + " (HTTP " + status
                    + (code == null ? "" : ", " + code) + ")", e);
        } catch (SdkClientException e) {
            if (e.getCause() instanceof SourceReadException source) {
                throw source;
            }
            throw new IOException(description + ": " + what + ": the endpoint is unreachable or failed: "
                    + e.getMessage(), e);
        } catch (SdkException e) {
            throw new IOException(description + ": " + what + ": " + e.getMessage(), e);
        }
    }

    private static String explain(int status, String code) {
        if (status == 403 || "InvalidAccessKeyId".equals(code) || "SignatureDoesNotMatch".equals(code)) {
            return "access denied: check the access key and secret key files";
        }
        if ("NoSuchBucket".equals(code) || status == 404) {
            return "the bucket does not exist";
        }
        if ("EntityTooLarge".equals(code) || status == 507 || "QuotaExceeded".equals(code)) {
            return "the target is full or refuses the size";
        }
        if (status >= 500) {
            return "the server failed";
        }
        return "the request was refused";
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** Internal: the object or its key is absent. */
    private static final class NotFound extends IOException {
        NotFound() {
            super("internal");
        }
    }

    /** Internal: If-None-Match refused the write. */
    private static final class PreconditionFailed extends IOException {
        PreconditionFailed() {
            super("internal");
        }
    }
}
