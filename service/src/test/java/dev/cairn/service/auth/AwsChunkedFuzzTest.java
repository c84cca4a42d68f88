package dev.cairn.service.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;

/**
 * The aws-chunked decoder with trailers. The fuzzer picks a payload mode, chunks, trailers and how
 * the body is read; the harness encodes them (signing them in the signed modes), then either keeps
 * the body, alters some of its bytes, or replaces it by raw fuzz bytes. Decoding either fails with
 * an {@link IOException}, or returns exactly the encoded data and trailers: a signed body that
 * decodes was not altered in its data, and an untouched body always decodes.
 */
class AwsChunkedFuzzTest {
    private static final String AMZ_DATE = "20250101T000000Z";
    private static final String SCOPE = "20250101/us-east-1/s3/aws4_request";
    private static final byte[] KEY = SigV4Crypto.signingKey("fuzz-secret", "20250101", "us-east-1", "s3");
    private static final String SEED = "0".repeat(63) + "1";
    private static final String CRC = "x-amz-checksum-crc32";
    private static final PayloadMode[] MODES = {
        PayloadMode.STREAMING_SIGNED, PayloadMode.STREAMING_UNSIGNED_TRAILER, PayloadMode.STREAMING_SIGNED_TRAILER};

    @FuzzTest(maxDuration = "10s")
    void decode(FuzzedDataProvider in) {
        PayloadMode mode = MODES[in.consumeInt(0, MODES.length - 1)];
        List<byte[]> chunks = new ArrayList<>();
        int count = in.consumeInt(0, 4);
        for (int i = 0; i < count; i++) {
            byte[] chunk = in.consumeBytes(in.consumeInt(1, 20_000));
            if (chunk.length > 0) {
                chunks.add(chunk);
            }
        }
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        chunks.forEach(c -> data.write(c, 0, c.length));
        byte[] expected = data.toByteArray();
        boolean withChecksum = mode.hasTrailer() && in.consumeBoolean();
        List<String> declared = withChecksum ? List.of(CRC) : List.of();
        Map<String, String> trailers = new TreeMap<>();
        if (withChecksum) {
            trailers.put(CRC, ChecksumAlgorithm.CRC32.checksum(expected));
        }
        long declaredLength = in.consumeBoolean() ? expected.length : -1;
        byte[] body = encode(mode, chunks, trailers);
        int tamper = in.consumeInt(0, 2);
        if (tamper == 1) {
            int edits = in.consumeInt(1, 4);
            for (int i = 0; i < edits && body.length > 0; i++) {
                body[in.consumeInt(0, body.length - 1)] ^= (byte) in.consumeInt(1, 255);
            }
        } else if (tamper == 2) {
            body = in.consumeBytes(in.consumeInt(0, 4096));
        }
        int readSize = in.consumeInt(1, 20_000);
        ChunkSigningContext signing = mode.payloadSigned() ? new ChunkSigningContext(KEY, SEED, AMZ_DATE, SCOPE) : null;
        AwsChunkedInputStream decoder = new AwsChunkedInputStream(new ByteArrayInputStream(body), mode, signing,
                declaredLength, declared);
        byte[] decoded;
        try {
            decoded = readAll(decoder, readSize);
        } catch (IOException refused) {
            assertTrue(tamper != 0, () -> "an untouched body was refused: " + refused);
            assertTrue(refused.getMessage() != null && !refused.getMessage().isEmpty());
            return;
        }
        if (tamper == 0 || mode.payloadSigned()) {
            assertArrayEquals(expected, decoded, "decoded data differs from what was signed or sent");
            assertEquals(trailers, new TreeMap<>(decoder.trailers()));
        }
        if (declaredLength >= 0 && tamper == 0) {
            assertEquals(declaredLength, decoded.length);
        }
    }

    private static byte[] readAll(InputStream in, int readSize) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[readSize];
        for (int n; (n = in.read(buf, 0, buf.length)) >= 0; ) {
            assertTrue(n > 0 || readSize == 0, "read returned 0");
            out.write(buf, 0, n);
        }
        assertEquals(-1, in.read(), "a finished stream must stay finished");
        return out.toByteArray();
    }

    /** The body an SDK would send: chunks, the final empty chunk, trailers, each signed when the mode is. */
    static byte[] encode(PayloadMode mode, List<byte[]> chunks, Map<String, String> trailers) {
        Mac mac = mode.payloadSigned() ? SigV4Crypto.mac(KEY) : null;
        String previous = SEED;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<byte[]> all = new ArrayList<>(chunks);
        all.add(new byte[0]);
        for (byte[] chunk : all) {
            StringBuilder header = new StringBuilder(Integer.toHexString(chunk.length));
            if (mac != null) {
                String sts = "AWS4-HMAC-SHA256-PAYLOAD\n" + AMZ_DATE + '\n' + SCOPE + '\n' + previous + '\n'
                        + SigV4Crypto.EMPTY_SHA256 + '\n' + SigV4Crypto.HEX.formatHex(SigV4Crypto.sha256().digest(chunk));
                previous = SigV4Crypto.sign(mac, sts);
                header.append(";chunk-signature=").append(previous);
            }
            out.writeBytes((header + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(chunk);
            if (chunk.length > 0) {
                out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        StringBuilder canonical = new StringBuilder();
        trailers.forEach((name, value) -> {
            canonical.append(name).append(':').append(value).append('\n');
            out.writeBytes((name + ":" + value + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        });
        if (mode == PayloadMode.STREAMING_SIGNED_TRAILER) {
            String sts = "AWS4-HMAC-SHA256-TRAILER\n" + AMZ_DATE + '\n' + SCOPE + '\n' + previous + '\n'
                    + SigV4Crypto.sha256Hex(canonical.toString());
            out.writeBytes(("x-amz-trailer-signature:" + SigV4Crypto.sign(mac, sts) + "\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }
}
