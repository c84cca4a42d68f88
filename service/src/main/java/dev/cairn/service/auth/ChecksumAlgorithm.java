package dev.cairn.service.auth;

import java.util.Base64;
import java.util.Locale;
import java.util.Optional;

/**
 * The additional checksums S3 accepts ({@code x-amz-checksum-*}): the algorithm's name, its header,
 * and a streaming digest whose value is encoded as S3 sends it, base64 of the big-endian bytes.
 *
 * <p>Thread-safe: the enum is immutable; each {@link #newDigest()} is for one thread.
 */
public enum ChecksumAlgorithm {
    CRC32("CRC32", 4),
    CRC32C("CRC32C", 4),
    CRC64NVME("CRC64NVME", 8),
    SHA1("SHA1", 20),
    SHA256("SHA256", 32);

    private static final String HEADER_PREFIX = "x-amz-checksum-";

    private final String s3Name;
    private final String headerName;
    private final int digestLength;

    ChecksumAlgorithm(String s3Name, int digestLength) {
        this.s3Name = s3Name;
        this.headerName = HEADER_PREFIX + s3Name.toLowerCase(Locale.ROOT);
        this.digestLength = digestLength;
    }

    /** The name as in {@code x-amz-checksum-algorithm} and {@code x-amz-sdk-checksum-algorithm}: {@code CRC32}. */
    public String s3Name() {
        return s3Name;
    }

    /** The lowercase header (or trailer) carrying the value: {@code x-amz-checksum-crc32}. */
    public String headerName() {
        return headerName;
    }

    /** Length in bytes of the raw checksum value. */
    public int digestLength() {
        return digestLength;
    }

    public StreamingChecksum newDigest() {
        return StreamingChecksum.create(this);
    }

    /** The base64 checksum of {@code data}, as S3 sends it. */
    public String checksum(byte[] data) {
        StreamingChecksum digest = newDigest();
        digest.update(data, 0, data.length);
        return digest.base64();
    }

    /** Whether {@code base64} is a well-formed value for this algorithm (right length, valid base64). */
    public boolean isWellFormed(String base64) {
        if (base64 == null) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(base64.trim()).length == digestLength;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The algorithm of a header name such as {@code x-amz-checksum-crc32} (any case). */
    public static Optional<ChecksumAlgorithm> fromHeaderName(String headerName) {
        if (headerName == null) {
            return Optional.empty();
        }
        String lower = headerName.trim().toLowerCase(Locale.ROOT);
        for (ChecksumAlgorithm algorithm : values()) {
            if (algorithm.headerName.equals(lower)) {
                return Optional.of(algorithm);
            }
        }
        return Optional.empty();
    }

    /** The algorithm of an S3 name such as {@code CRC32} (any case). */
    public static Optional<ChecksumAlgorithm> fromS3Name(String s3Name) {
        if (s3Name == null) {
            return Optional.empty();
        }
        String upper = s3Name.trim().toUpperCase(Locale.ROOT);
        for (ChecksumAlgorithm algorithm : values()) {
            if (algorithm.s3Name.equals(upper)) {
                return Optional.of(algorithm);
            }
        }
        return Optional.empty();
    }

    static boolean isChecksumHeader(String lowercaseName) {
        return lowercaseName.startsWith(HEADER_PREFIX);
    }
}
