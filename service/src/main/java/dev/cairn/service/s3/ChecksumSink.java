package dev.cairn.service.s3;

/** A running checksum fed while a body streams in. Not thread-safe. */
public interface ChecksumSink {

    /** The S3 name of the algorithm: CRC32, CRC32C, SHA1, SHA256. */
    String algorithm();

    void update(byte[] data, int offset, int length);

    /** The value as S3 sends it (base64); call once, after the last update. */
    String base64();
}
