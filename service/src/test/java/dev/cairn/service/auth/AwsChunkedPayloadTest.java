package dev.cairn.service.auth;

import static dev.cairn.service.auth.SdkSigning.ACCESS_KEY;
import static dev.cairn.service.auth.SdkSigning.NOW;
import static dev.cairn.service.auth.SdkSigning.SECRET_KEY;
import static dev.cairn.service.auth.SdkSigning.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.auth.SdkSigning.Wire;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.http.SdkHttpMethod;

class AwsChunkedPayloadTest {
    private static final long SEED = Long.getLong("cairn.test.seed", System.nanoTime());
    private static final SigV4Verifier VERIFIER = new SigV4Verifier(
            CredentialsProvider.of(Map.of(ACCESS_KEY, SECRET_KEY)), "us-east-1", Clock.fixed(NOW, ZoneOffset.UTC),
            SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);

    static {
        System.out.println("AwsChunkedPayloadTest seed: " + SEED + " (rerun with -Dcairn.test.seed=" + SEED + ")");
    }

    /** The streaming modes, signed the way the SDK signs them. */
    enum Mode {
        SIGNED(PayloadMode.STREAMING_SIGNED, "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"),
        SIGNED_TRAILER(PayloadMode.STREAMING_SIGNED_TRAILER, "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"),
        UNSIGNED_TRAILER(PayloadMode.STREAMING_UNSIGNED_TRAILER, "STREAMING-UNSIGNED-PAYLOAD-TRAILER");

        final PayloadMode payloadMode;
        final String header;

        Mode(PayloadMode payloadMode, String header) {
            this.payloadMode = payloadMode;
            this.header = header;
        }

        Wire sign(byte[] body, software.amazon.awssdk.checksums.spi.ChecksumAlgorithm checksum) {
            SdkSigning.Spec spec = spec().method(SdkHttpMethod.PUT).key("bucket", "photos/a b.png").body(body);
            return switch (this) {
                case SIGNED -> spec.chunked(true, null).sign();
                case SIGNED_TRAILER -> spec.chunked(true, checksum).sign();
                case UNSIGNED_TRAILER -> spec.chunked(false, checksum).sign();
            };
        }

        Wire sign(byte[] body) {
            return sign(body, DefaultChecksumAlgorithm.CRC32);
        }
    }

    private static byte[] randomBytes(int size) {
        byte[] data = new byte[size];
        new Random(SEED + size).nextBytes(data);
        return data;
    }

    static Stream<Arguments> modesAndSizes() {
        return Stream.of(Mode.values()).flatMap(mode -> Stream.of(0, 1, 20 * 1024, 128 * 1024, 300 * 1024 + 7)
                .map(size -> Arguments.of(mode, size)));
    }

    @ParameterizedTest
    @MethodSource("modesAndSizes")
    void validStreamingUploadDecodes(Mode mode, int size) throws IOException {
        byte[] data = randomBytes(size);
        Wire wire = mode.sign(data);
        assertEquals(mode.header, wire.header("x-amz-content-sha256"));
        AuthResult result = VERIFIER.authenticate(wire.request());
        assertEquals(ACCESS_KEY, result.accessKey());
        assertEquals(mode.payloadMode, result.payloadMode());
        assertEquals(size, result.decodedContentLength());
        try (InputStream in = result.wrapBody(new ByteArrayInputStream(wire.body()))) {
            assertArrayEquals(data, in.readAllBytes());
            assertEquals(-1, in.read());
        }
        if (mode == Mode.SIGNED) {
            assertTrue(result.trailers().isEmpty());
        } else {
            assertEquals(Map.of("x-amz-checksum-crc32", ChecksumAlgorithm.CRC32.checksum(data)), result.trailers());
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void smallAndOddReadsDecodeTheSame(Mode mode) throws IOException {
        byte[] data = randomBytes(150 * 1024);
        Wire wire = mode.sign(data);
        AuthResult result = VERIFIER.authenticate(wire.request());
        assertArrayEquals(data, readMixed(result, wire.body(), new Random(SEED)));
        assertEquals(mode == Mode.SIGNED ? 0 : 1, result.trailers().size());
    }

    private static byte[] readMixed(AuthResult result, byte[] body, Random random) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = result.wrapBody(new TrickleInputStream(body, random))) {
            byte[] buffer = new byte[70_000];
            for (int i = 0; i < 10_000_000; i++) {
                if (random.nextInt(8) == 0) {
                    int b = in.read();
                    if (b < 0) {
                        return out.toByteArray();
                    }
                    out.write(b);
                } else {
                    int n = in.read(buffer, 0, 1 + random.nextInt(buffer.length));
                    if (n < 0) {
                        return out.toByteArray();
                    }
                    out.write(buffer, 0, n);
                }
            }
        }
        throw new AssertionError("the stream did not end");
    }

    /** Returns at most a random handful of bytes per read, like a slow network. */
    private static final class TrickleInputStream extends InputStream {
        private final byte[] data;
        private final Random random;
        private int pos;

        TrickleInputStream(byte[] data, Random random) {
            this.data = data;
            this.random = random;
        }

        @Override
        public int read() {
            return pos < data.length ? data[pos++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= data.length) {
                return -1;
            }
            int n = Math.min(Math.min(len, data.length - pos), 1 + random.nextInt(20_000));
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    static Stream<Arguments> trailerChecksums() {
        return Stream.of(Mode.SIGNED_TRAILER, Mode.UNSIGNED_TRAILER).flatMap(mode -> Stream.of(
                Arguments.of(mode, DefaultChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32),
                Arguments.of(mode, DefaultChecksumAlgorithm.CRC32C, ChecksumAlgorithm.CRC32C),
                Arguments.of(mode, DefaultChecksumAlgorithm.SHA1, ChecksumAlgorithm.SHA1),
                Arguments.of(mode, DefaultChecksumAlgorithm.SHA256, ChecksumAlgorithm.SHA256)));
    }

    @ParameterizedTest
    @MethodSource("trailerChecksums")
    void everyTrailerChecksumIsVerified(Mode mode, software.amazon.awssdk.checksums.spi.ChecksumAlgorithm sdkAlgorithm,
                                        ChecksumAlgorithm algorithm) throws IOException {
        byte[] data = randomBytes(20 * 1024);
        Wire wire = mode.sign(data, sdkAlgorithm);
        assertEquals(algorithm.headerName(), wire.header("x-amz-trailer"));
        AuthResult result = VERIFIER.authenticate(wire.request());
        assertArrayEquals(data, readAll(result, wire.body()));
        assertEquals(algorithm.checksum(data), result.trailers().get(algorithm.headerName()));

        String sent = algorithm.checksum(data);
        String wrong = algorithm.checksum(randomBytes(5));
        AuthException e = failure(VERIFIER.authenticate(wire.request()), replace(wire.body(), sent, wrong));
        assertEquals(mode == Mode.SIGNED_TRAILER ? "SignatureDoesNotMatch" : "BadDigest", e.s3Code());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void corruptedChunkDataIsRefused(Mode mode) {
        byte[] data = randomBytes(20 * 1024);
        Wire wire = mode.sign(data);
        byte[] body = wire.body().clone();
        int dataStart = indexOf(body, "\r\n".getBytes(StandardCharsets.US_ASCII), 0) + 2;
        body[dataStart + 1000] ^= 0x01;
        AuthException e = failure(VERIFIER.authenticate(wire.request()), body);
        assertEquals(mode == Mode.UNSIGNED_TRAILER ? "BadDigest" : "SignatureDoesNotMatch", e.s3Code());
        assertEquals(mode == Mode.UNSIGNED_TRAILER ? 400 : 403, e.httpStatus());
    }

    @ParameterizedTest
    @EnumSource(value = Mode.class, names = {"SIGNED", "SIGNED_TRAILER"})
    void corruptedChunkSignatureIsRefused(Mode mode) {
        Wire wire = mode.sign(randomBytes(300 * 1024));
        byte[] body = wire.body().clone();
        List<Integer> signatures = indexesOf(body, "chunk-signature=");
        assertEquals(4, signatures.size(), "three data chunks and the final one");
        for (int which : signatures) {
            byte[] corrupted = body.clone();
            int at = which + "chunk-signature=".length() + 10;
            corrupted[at] = (byte) (corrupted[at] == 'a' ? 'b' : 'a');
            assertEquals("SignatureDoesNotMatch", failure(VERIFIER.authenticate(wire.request()), corrupted).s3Code());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Mode.class, names = {"SIGNED", "SIGNED_TRAILER"})
    void chunksCannotBeReordered(Mode mode) {
        byte[] data = randomBytes(256 * 1024);
        System.arraycopy(randomBytes(128 * 1024), 0, data, 128 * 1024, 128 * 1024);
        Wire wire = mode.sign(data);
        byte[] body = wire.body();
        List<Integer> chunks = indexesOf(body, "20000;chunk-signature=");
        assertEquals(2, chunks.size());
        int first = chunks.get(0);
        int second = chunks.get(1);
        int end = indexesOf(body, "0;chunk-signature=").stream().filter(i -> i > second + 10).findFirst().orElseThrow();
        ByteArrayOutputStream swapped = new ByteArrayOutputStream();
        swapped.write(body, second, end - second);
        swapped.write(body, first, second - first);
        swapped.write(body, end, body.length - end);
        assertEquals("SignatureDoesNotMatch", failure(VERIFIER.authenticate(wire.request()), swapped.toByteArray())
                .s3Code());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void missingFinalChunkIsRefused(Mode mode) {
        Wire wire = mode.sign(randomBytes(20 * 1024));
        byte[] body = wire.body();
        int finalChunk = lastFinalChunk(body);
        AuthException e = failure(VERIFIER.authenticate(wire.request()), Arrays.copyOf(body, finalChunk));
        assertEquals("IncompleteBody", e.s3Code());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void truncatedBodyIsRefusedWherever(Mode mode) {
        byte[] data = randomBytes(20 * 1024);
        Wire wire = mode.sign(data);
        byte[] body = wire.body();
        Random random = new Random(SEED);
        for (int i = 0; i < 160; i++) {
            int cut = i < 40 ? random.nextInt(body.length) : body.length - 1 - (i - 40);
            AuthException e = failure(VERIFIER.authenticate(wire.request()), Arrays.copyOf(body, cut));
            assertTrue(List.of("IncompleteBody", "MalformedTrailerError", "SignatureDoesNotMatch", "BadDigest")
                    .contains(e.s3Code()), "cut at " + cut + " of " + body.length + ": " + e);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void randomlyMutatedBodiesNeverDecodeToOtherData(Mode mode) throws IOException {
        byte[] data = randomBytes(3000);
        Wire wire = mode.sign(data);
        byte[] body = wire.body();
        Random random = new Random(SEED ^ mode.ordinal());
        int refused = 0;
        for (int round = 0; round < 300; round++) {
            byte[] mutated = mutate(body, random);
            AuthResult result = VERIFIER.authenticate(wire.request());
            try (InputStream in = result.wrapBody(new ByteArrayInputStream(mutated))) {
                byte[] decoded = in.readAllBytes();
                assertArrayEquals(data, decoded, "round " + round + " accepted other data");
            } catch (AuthFailureIOException e) {
                refused++;
            }
        }
        assertTrue(refused > 250, "most mutations are refused: " + refused);
    }

    private static byte[] mutate(byte[] body, Random random) {
        int at = random.nextInt(body.length);
        switch (random.nextInt(3)) {
            case 0 -> {
                byte[] copy = body.clone();
                copy[at] ^= (byte) (1 + random.nextInt(255));
                return copy;
            }
            case 1 -> {
                byte[] copy = new byte[body.length + 1];
                System.arraycopy(body, 0, copy, 0, at);
                copy[at] = (byte) random.nextInt(256);
                System.arraycopy(body, at, copy, at + 1, body.length - at);
                return copy;
            }
            default -> {
                byte[] copy = new byte[body.length - 1];
                System.arraycopy(body, 0, copy, 0, at);
                System.arraycopy(body, at + 1, copy, at, body.length - at - 1);
                return copy;
            }
        }
    }

    @Test
    void missingDeclaredTrailerIsRefused() {
        byte[] data = randomBytes(1024);
        Wire wire = Mode.UNSIGNED_TRAILER.sign(data);
        String trailer = "x-amz-checksum-crc32:" + ChecksumAlgorithm.CRC32.checksum(data) + "\r\n";
        byte[] body = replace(wire.body(), trailer, "");
        assertEquals("MalformedTrailerError", failure(VERIFIER.authenticate(wire.request()), body).s3Code());
    }

    @Test
    void undeclaredTrailerIsRefused() {
        byte[] data = randomBytes(1024);
        Wire wire = Mode.UNSIGNED_TRAILER.sign(data);
        String trailer = "x-amz-checksum-crc32:" + ChecksumAlgorithm.CRC32.checksum(data) + "\r\n";
        byte[] body = replace(wire.body(), trailer, trailer + "x-amz-meta-sneaky:1\r\n");
        assertEquals("MalformedTrailerError", failure(VERIFIER.authenticate(wire.request()), body).s3Code());
    }

    @Test
    void failureIsSticky() throws IOException {
        Wire wire = Mode.SIGNED.sign(randomBytes(1024));
        byte[] body = wire.body().clone();
        body[body.length / 2] ^= 1;
        try (InputStream in = VERIFIER.authenticate(wire.request()).wrapBody(new ByteArrayInputStream(body))) {
            assertThrows(AuthFailureIOException.class, in::readAllBytes);
            assertThrows(AuthFailureIOException.class, in::read);
        }
    }

    @Test
    void decodedLengthMustMatch() {
        byte[] data = randomBytes(1000);
        String body = "3e8\r\n" + new String(data, StandardCharsets.ISO_8859_1) + "\r\n0\r\n"
                + "x-amz-checksum-crc32:" + ChecksumAlgorithm.CRC32.checksum(data) + "\r\n\r\n";
        byte[] wire = body.getBytes(StandardCharsets.ISO_8859_1);
        for (long declared : new long[] {999, 1001}) {
            AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(wire),
                    PayloadMode.STREAMING_UNSIGNED_TRAILER, null, declared, List.of("x-amz-checksum-crc32"));
            AuthFailureIOException e = assertThrows(AuthFailureIOException.class, in::readAllBytes);
            assertFalse(e.failure().s3Code().isEmpty());
        }
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(wire),
                PayloadMode.STREAMING_UNSIGNED_TRAILER, null, 1000, List.of("x-amz-checksum-crc32"));
        assertArrayEquals(data, assertDoesNotThrowRead(in));
    }

    private static byte[] assertDoesNotThrowRead(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    // The chunked-upload examples published with the S3 SigV4 documentation: 65536 + 1024 bytes of 'a'.
    private static final String DOC_SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

    private static byte[] docBody(String[] signatures, String trailer) {
        String a64k = "a".repeat(65536);
        return ("10000;chunk-signature=" + signatures[0] + "\r\n" + a64k + "\r\n"
                + "400;chunk-signature=" + signatures[1] + "\r\n" + "a".repeat(1024) + "\r\n"
                + "0;chunk-signature=" + signatures[2] + "\r\n" + trailer + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void documentedSignedChunkedUploadExample() throws IOException {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("s3.amazonaws.com"));
        headers.put("x-amz-date", List.of("20130524T000000Z"));
        headers.put("x-amz-storage-class", List.of("REDUCED_REDUNDANCY"));
        headers.put("x-amz-content-sha256", List.of("STREAMING-AWS4-HMAC-SHA256-PAYLOAD"));
        headers.put("Content-Encoding", List.of("aws-chunked"));
        headers.put("x-amz-decoded-content-length", List.of("66560"));
        headers.put("Content-Length", List.of("66824"));
        headers.put("Authorization", List.of("AWS4-HMAC-SHA256 "
                + "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                + "SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;"
                + "x-amz-decoded-content-length;x-amz-storage-class,"
                + "Signature=4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"));
        SigV4Verifier verifier = new SigV4Verifier(
                CredentialsProvider.of(Map.of("AKIAIOSFODNN7EXAMPLE", DOC_SECRET_KEY)), "us-east-1",
                Clock.fixed(Instant.parse("2013-05-24T00:00:00Z"), ZoneOffset.UTC),
                SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
        AuthResult result = verifier.authenticate(
                new SignedRequest("PUT", "/examplebucket/chunkObject.txt", null, headers));
        assertEquals(PayloadMode.STREAMING_SIGNED, result.payloadMode());
        assertEquals(66560, result.decodedContentLength());
        byte[] body = docBody(new String[] {
            "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
            "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
            "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9"}, "");
        assertEquals(66824, body.length);
        assertArrayEquals("a".repeat(66560).getBytes(StandardCharsets.US_ASCII), readAll(result, body));
    }

    @Test
    void documentedSignedTrailerExample() throws IOException {
        String scope = "20130524/us-east-1/s3/aws4_request";
        ChunkSigningContext context = new ChunkSigningContext(
                SigV4Crypto.signingKey(DOC_SECRET_KEY, "20130524", "us-east-1", "s3"),
                "106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e", "20130524T000000Z", scope);
        String[] signatures = {
            "b474d8862b1487a5145d686f57f013e54db672cee1c953b3010fb58501ef5aa2",
            "1c1344b170168f8e65b41376b44b20fe354e373826ccbbe2c1d40a8cae51e5c7",
            "2ca2aba2005185cf7159c6277faf83795951dd77a3a99e6e65d5c9f85863f992"};
        String trailerSignature = "d81f82fc3505edab99d459891051a732e8730629a2e4a59689829ca17fe2e435";
        for (String separator : new String[] {"\r\n", "\n\r\n"}) {
            byte[] body = docBody(signatures,
                    "x-amz-checksum-crc32c:sOO8/Q==" + separator
                            + "x-amz-trailer-signature:" + trailerSignature + "\r\n");
            AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(body),
                    PayloadMode.STREAMING_SIGNED_TRAILER, context, 66560, List.of("x-amz-checksum-crc32c"));
            assertArrayEquals("a".repeat(66560).getBytes(StandardCharsets.US_ASCII), in.readAllBytes());
            assertEquals(Map.of("x-amz-checksum-crc32c", "sOO8/Q=="), in.trailers());
        }
        byte[] tampered = docBody(signatures,
                "x-amz-checksum-crc32c:sOO8/Q==\r\nx-amz-trailer-signature:"
                        + trailerSignature.replace('d', 'e') + "\r\n");
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(tampered),
                PayloadMode.STREAMING_SIGNED_TRAILER, context, 66560, List.of("x-amz-checksum-crc32c"));
        AuthFailureIOException e = assertThrows(AuthFailureIOException.class, in::readAllBytes);
        assertEquals("SignatureDoesNotMatch", e.failure().s3Code());
    }

    private static byte[] readAll(AuthResult result, byte[] body) throws IOException {
        try (InputStream in = result.wrapBody(new ByteArrayInputStream(body))) {
            return in.readAllBytes();
        }
    }

    private static AuthException failure(AuthResult result, byte[] body) {
        AuthFailureIOException e = assertThrows(AuthFailureIOException.class, () -> readAll(result, body));
        assertFalse(e.getMessage().contains(SECRET_KEY));
        return e.failure();
    }

    private static int lastFinalChunk(byte[] body) {
        List<Integer> candidates = indexesOf(body, "\r\n0;chunk-signature=");
        candidates.addAll(indexesOf(body, "\r\n0\r\n"));
        return candidates.stream().mapToInt(Integer::intValue).max().orElseThrow() + 2;
    }

    private static byte[] replace(byte[] body, String from, String to) {
        String text = new String(body, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains(from), "the body holds " + from);
        return text.replace(from, to).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static List<Integer> indexesOf(byte[] body, String needle) {
        byte[] pattern = needle.getBytes(StandardCharsets.US_ASCII);
        List<Integer> result = new java.util.ArrayList<>();
        for (int i = indexOf(body, pattern, 0); i >= 0; i = indexOf(body, pattern, i + 1)) {
            result.add(i);
        }
        return result;
    }

    private static int indexOf(byte[] body, byte[] pattern, int from) {
        outer:
        for (int i = from; i <= body.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (body[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
