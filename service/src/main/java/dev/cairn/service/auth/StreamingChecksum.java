package dev.cairn.service.auth;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * A running checksum of one {@link ChecksumAlgorithm}: feed it bytes in bulk, then read its value
 * once. Not thread-safe.
 */
public abstract class StreamingChecksum {
    private final ChecksumAlgorithm algorithm;

    StreamingChecksum(ChecksumAlgorithm algorithm) {
        this.algorithm = algorithm;
    }

    public final ChecksumAlgorithm algorithm() {
        return algorithm;
    }

    public abstract void update(byte[] data, int offset, int length);

    /** Consumes the buffer's remaining bytes. */
    public abstract void update(ByteBuffer data);

    /** The raw checksum value, big-endian. Call once, after the last update. */
    public abstract byte[] digest();

    /** The value as S3 sends it: base64 of {@link #digest()}. Call once, after the last update. */
    public final String base64() {
        return Base64.getEncoder().encodeToString(digest());
    }

    static StreamingChecksum create(ChecksumAlgorithm algorithm) {
        return switch (algorithm) {
            case CRC32 -> new Crc32Family(algorithm, new CRC32());
            case CRC32C -> new Crc32Family(algorithm, new CRC32C());
            case CRC64NVME -> new Crc64Nvme();
            case SHA1 -> new Hash(algorithm, "SHA-1");
            case SHA256 -> new Hash(algorithm, "SHA-256");
        };
    }

    private static final class Crc32Family extends StreamingChecksum {
        private final Checksum crc;

        Crc32Family(ChecksumAlgorithm algorithm, Checksum crc) {
            super(algorithm);
            this.crc = crc;
        }

        @Override
        public void update(byte[] data, int offset, int length) {
            crc.update(data, offset, length);
        }

        @Override
        public void update(ByteBuffer data) {
            crc.update(data);
        }

        @Override
        public byte[] digest() {
            return ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
        }
    }

    private static final class Hash extends StreamingChecksum {
        private final MessageDigest digest;

        Hash(ChecksumAlgorithm algorithm, String jcaName) {
            super(algorithm);
            try {
                this.digest = MessageDigest.getInstance(jcaName);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(jcaName + " is required of every Java platform", e);
            }
        }

        @Override
        public void update(byte[] data, int offset, int length) {
            digest.update(data, offset, length);
        }

        @Override
        public void update(ByteBuffer data) {
            digest.update(data);
        }

        @Override
        public byte[] digest() {
            return digest.digest();
        }
    }

    /** CRC-64/NVME (reflected polynomial 0x9a6c9329ac4bc9b5), table driven, eight tables (slicing-by-8). */
    private static final class Crc64Nvme extends StreamingChecksum {
        private static final long REFLECTED_POLY = 0x9a6c9329ac4bc9b5L;
        private static final long[][] TABLES = tables();

        private long crc = -1L;

        Crc64Nvme() {
            super(ChecksumAlgorithm.CRC64NVME);
        }

        private static long[][] tables() {
            long[][] t = new long[8][256];
            for (int i = 0; i < 256; i++) {
                long c = i;
                for (int bit = 0; bit < 8; bit++) {
                    c = (c & 1) != 0 ? (c >>> 1) ^ REFLECTED_POLY : c >>> 1;
                }
                t[0][i] = c;
            }
            for (int i = 0; i < 256; i++) {
                for (int k = 1; k < 8; k++) {
                    long prev = t[k - 1][i];
                    t[k][i] = t[0][(int) (prev & 0xff)] ^ (prev >>> 8);
                }
            }
            return t;
        }

        @Override
        public void update(byte[] data, int offset, int length) {
            long c = crc;
            long[][] t = TABLES;
            int i = offset;
            int end = offset + length;
            while (end - i >= 8) {
                long x = c ^ ((data[i] & 0xffL)
                        | (data[i + 1] & 0xffL) << 8
                        | (data[i + 2] & 0xffL) << 16
                        | (data[i + 3] & 0xffL) << 24
                        | (data[i + 4] & 0xffL) << 32
                        | (data[i + 5] & 0xffL) << 40
                        | (data[i + 6] & 0xffL) << 48
                        | (data[i + 7] & 0xffL) << 56);
                c = t[7][(int) (x & 0xff)]
                        ^ t[6][(int) ((x >>> 8) & 0xff)]
                        ^ t[5][(int) ((x >>> 16) & 0xff)]
                        ^ t[4][(int) ((x >>> 24) & 0xff)]
                        ^ t[3][(int) ((x >>> 32) & 0xff)]
                        ^ t[2][(int) ((x >>> 40) & 0xff)]
                        ^ t[1][(int) ((x >>> 48) & 0xff)]
                        ^ t[0][(int) (x >>> 56)];
                i += 8;
            }
            while (i < end) {
                c = t[0][(int) ((c ^ data[i]) & 0xff)] ^ (c >>> 8);
                i++;
            }
            crc = c;
        }

        @Override
        public void update(ByteBuffer data) {
            if (data.hasArray()) {
                update(data.array(), data.arrayOffset() + data.position(), data.remaining());
                data.position(data.limit());
                return;
            }
            byte[] chunk = new byte[Math.min(data.remaining(), 8192)];
            while (data.hasRemaining()) {
                int n = Math.min(chunk.length, data.remaining());
                data.get(chunk, 0, n);
                update(chunk, 0, n);
            }
        }

        @Override
        public byte[] digest() {
            return ByteBuffer.allocate(8).putLong(~crc).array();
        }
    }
}
