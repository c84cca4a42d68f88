package dev.cairn.service.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;

class ChecksumAlgorithmTest {
    private static final long SEED = Long.getLong("cairn.test.seed", System.nanoTime());
    private static final byte[] CHECK_INPUT = "123456789".getBytes(StandardCharsets.US_ASCII);

    static {
        System.out.println("ChecksumAlgorithmTest seed: " + SEED + " (rerun with -Dcairn.test.seed=" + SEED + ")");
    }

    private static String base64OfHex(String hex) {
        return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
    }

    @Test
    void catalogueCheckValues() {
        // The "check" value of each algorithm: its checksum of the ASCII digits 1 to 9.
        assertEquals(base64OfHex("cbf43926"), ChecksumAlgorithm.CRC32.checksum(CHECK_INPUT));
        assertEquals(base64OfHex("e3069283"), ChecksumAlgorithm.CRC32C.checksum(CHECK_INPUT));
        assertEquals(base64OfHex("ae8b14860a799888"), ChecksumAlgorithm.CRC64NVME.checksum(CHECK_INPUT));
        assertEquals(base64OfHex("f7c3bc1d808e04732adf679965ccc34ca7ae3441"),
                ChecksumAlgorithm.SHA1.checksum(CHECK_INPUT));
        assertEquals(base64OfHex("15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225"),
                ChecksumAlgorithm.SHA256.checksum(CHECK_INPUT));
    }

    @Test
    void emptyInput() {
        assertEquals("AAAAAA==", ChecksumAlgorithm.CRC32.checksum(new byte[0]));
        assertEquals("AAAAAA==", ChecksumAlgorithm.CRC32C.checksum(new byte[0]));
        assertEquals("AAAAAAAAAAA=", ChecksumAlgorithm.CRC64NVME.checksum(new byte[0]));
        assertEquals("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", ChecksumAlgorithm.SHA256.checksum(new byte[0]));
    }

    @Test
    void matchesTheSdksChecksums() {
        Random random = new Random(SEED);
        for (int round = 0; round < 20; round++) {
            byte[] data = new byte[random.nextInt(70_000)];
            random.nextBytes(data);
            assertEquals(sdk(DefaultChecksumAlgorithm.CRC32, data), ChecksumAlgorithm.CRC32.checksum(data));
            assertEquals(sdk(DefaultChecksumAlgorithm.CRC32C, data), ChecksumAlgorithm.CRC32C.checksum(data));
            assertEquals(sdk(DefaultChecksumAlgorithm.SHA1, data), ChecksumAlgorithm.SHA1.checksum(data));
            assertEquals(sdk(DefaultChecksumAlgorithm.SHA256, data), ChecksumAlgorithm.SHA256.checksum(data));
        }
    }

    private static String sdk(software.amazon.awssdk.checksums.spi.ChecksumAlgorithm algorithm, byte[] data) {
        SdkChecksum checksum = SdkChecksum.forAlgorithm(algorithm);
        checksum.update(data, 0, data.length);
        return Base64.getEncoder().encodeToString(checksum.getChecksumBytes());
    }

    @ParameterizedTest
    @EnumSource(ChecksumAlgorithm.class)
    void streamingInPiecesEqualsOneShot(ChecksumAlgorithm algorithm) {
        Random random = new Random(SEED);
        byte[] data = new byte[50_000 + random.nextInt(1000)];
        random.nextBytes(data);
        StreamingChecksum pieces = algorithm.newDigest();
        int offset = 0;
        while (offset < data.length) {
            int n = Math.min(data.length - offset, random.nextInt(20));
            if (random.nextBoolean()) {
                pieces.update(data, offset, n);
            } else {
                ByteBuffer direct = ByteBuffer.allocateDirect(n).put(data, offset, n).flip();
                pieces.update(direct);
                assertFalse(direct.hasRemaining());
            }
            offset += n;
        }
        String expected = algorithm.checksum(data);
        assertEquals(expected, pieces.base64());
        assertTrue(algorithm.isWellFormed(expected));
        assertEquals(algorithm.digestLength(), Base64.getDecoder().decode(expected).length);
    }

    @Test
    void namesAndHeaders() {
        assertEquals("x-amz-checksum-crc32", ChecksumAlgorithm.CRC32.headerName());
        assertEquals("x-amz-checksum-crc64nvme", ChecksumAlgorithm.CRC64NVME.headerName());
        assertEquals(Optional.of(ChecksumAlgorithm.CRC32C), ChecksumAlgorithm.fromHeaderName("X-Amz-Checksum-CRC32C"));
        assertEquals(Optional.of(ChecksumAlgorithm.SHA256), ChecksumAlgorithm.fromS3Name("sha256"));
        assertEquals(Optional.empty(), ChecksumAlgorithm.fromHeaderName("x-amz-checksum-md5"));
        assertEquals(Optional.empty(), ChecksumAlgorithm.fromS3Name("MD5"));
    }

    @Test
    void wellFormedValues() {
        assertTrue(ChecksumAlgorithm.CRC32.isWellFormed("AAAAAA=="));
        assertFalse(ChecksumAlgorithm.CRC32.isWellFormed("AAAAAAAA"));
        assertFalse(ChecksumAlgorithm.CRC32.isWellFormed("not base64!"));
        assertFalse(ChecksumAlgorithm.SHA1.isWellFormed(ChecksumAlgorithm.SHA256.checksum(new byte[1])));
        assertFalse(ChecksumAlgorithm.SHA1.isWellFormed(null));
    }
}
