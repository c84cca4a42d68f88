package dev.cairn.service.auth;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;

/**
 * Decodes an aws-chunked body and verifies it while it streams.
 *
 * <pre>
 * body    = *chunk last-chunk trailer CRLF
 * chunk   = hex-size [ ";chunk-signature=" sig ] CRLF data CRLF
 * last    = "0" [ ";chunk-signature=" sig ] CRLF
 * trailer = *( name ":" value CRLF )          ; e.g. x-amz-checksum-crc32, x-amz-trailer-signature
 * </pre>
 *
 * <p>Signed modes chain each chunk's signature from the previous one, starting at the request's
 * signature: HMAC(key, "AWS4-HMAC-SHA256-PAYLOAD\n" date "\n" scope "\n" previous "\n"
 * sha256("") "\n" sha256(data)). The trailer signature continues the chain over the canonical
 * trailers ("name:value\n" sorted by name): "AWS4-HMAC-SHA256-TRAILER\n" date "\n" scope "\n"
 * previous "\n" sha256(trailers). A chunk's signature is checked as soon as its last byte is read;
 * the last chunk, the trailers and the checksums before end of stream is reported.
 *
 * <p>Memory is bounded: one read buffer and one header line, whatever the body's size. Data is
 * copied in bulk, straight from the source into the caller's array when the caller reads a lot.
 *
 * <p>Not thread-safe.
 */
final class AwsChunkedInputStream extends InputStream {
    static final String TRAILER_SIGNATURE = "x-amz-trailer-signature";
    private static final int BUFFER_SIZE = 8192;
    private static final int MAX_LINE_LENGTH = 4096;
    private static final int MAX_TRAILERS = 32;
    private static final int MAX_SIZE_DIGITS = 15;

    private final InputStream in;
    private final PayloadMode mode;
    private final ChunkSigningContext signing;
    private final Mac mac;
    private final MessageDigest chunkSha256;
    private final long declaredLength;
    private final List<String> declaredTrailers;
    private final StreamingChecksum[] checksums;

    private final byte[] buf = new byte[BUFFER_SIZE];
    private int pos;
    private int limit;
    private final byte[] line = new byte[MAX_LINE_LENGTH];

    private String previousSignature;
    private String chunkSignature;
    private long chunkRemaining;
    private boolean dataEndPending;
    private long decoded;
    private boolean done;
    private AuthFailureIOException failure;
    private Map<String, String> trailers = Map.of();

    AwsChunkedInputStream(InputStream in, PayloadMode mode, ChunkSigningContext signing, long declaredLength,
                          List<String> declaredTrailers) {
        if (!mode.awsChunked()) {
            throw new IllegalArgumentException("not an aws-chunked mode: " + mode);
        }
        if (mode.payloadSigned() != (signing != null)) {
            throw new IllegalArgumentException("signed modes need a signing context, unsigned ones none: " + mode);
        }
        this.in = Objects.requireNonNull(in, "in");
        this.mode = mode;
        this.signing = signing;
        this.mac = signing == null ? null : SigV4Crypto.mac(signing.signingKey());
        this.chunkSha256 = signing == null ? null : SigV4Crypto.sha256();
        this.previousSignature = signing == null ? null : signing.seedSignature();
        this.declaredLength = declaredLength;
        this.declaredTrailers = declaredTrailers;
        List<StreamingChecksum> digests = new ArrayList<>(declaredTrailers.size());
        for (String name : declaredTrailers) {
            ChecksumAlgorithm.fromHeaderName(name).ifPresent(algorithm -> digests.add(algorithm.newDigest()));
        }
        this.checksums = digests.toArray(new StreamingChecksum[0]);
    }

    /** Trailers received (without the trailer signature), once the stream has returned -1. */
    Map<String, String> trailers() {
        return trailers;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (failure != null) {
            throw failure;
        }
        if (len == 0) {
            return 0;
        }
        try {
            while (chunkRemaining == 0) {
                if (done) {
                    return -1;
                }
                nextChunk();
            }
            return readData(b, off, len);
        } catch (AuthException e) {
            failure = new AuthFailureIOException(e);
            throw failure;
        }
    }

    private int readData(byte[] b, int off, int len) throws IOException {
        int want = (int) Math.min(len, chunkRemaining);
        int n;
        if (pos < limit) {
            n = Math.min(want, limit - pos);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
        } else if (want >= BUFFER_SIZE) {
            n = in.read(b, off, want);
            if (n <= 0) {
                throw AuthException.incompleteBody("The body ended inside a chunk");
            }
        } else {
            if (!fill()) {
                throw AuthException.incompleteBody("The body ended inside a chunk");
            }
            n = Math.min(want, limit - pos);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
        }
        if (chunkSha256 != null) {
            chunkSha256.update(b, off, n);
        }
        for (StreamingChecksum checksum : checksums) {
            checksum.update(b, off, n);
        }
        decoded += n;
        chunkRemaining -= n;
        if (chunkRemaining == 0) {
            dataEndPending = true;
            if (signing != null) {
                verifyChunkSignature(SigV4Crypto.HEX.formatHex(chunkSha256.digest()));
            }
        }
        return n;
    }

    private boolean fill() throws IOException {
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
            pos = 0;
            limit = 0;
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    private void nextChunk() throws IOException {
        if (dataEndPending) {
            expectCrlf();
            dataEndPending = false;
        }
        String header = readLine();
        if (header == null) {
            throw AuthException.incompleteBody("The body ended before the final zero-length chunk");
        }
        int semicolon = header.indexOf(';');
        long size = parseSize(semicolon < 0 ? header : header.substring(0, semicolon));
        chunkSignature = semicolon < 0 ? null : extension(header.substring(semicolon + 1), "chunk-signature");
        if (signing != null && !SigV4Crypto.isLowerHex(chunkSignature, 64)) {
            throw AuthException.signatureDoesNotMatch("A chunk of the body has no valid chunk-signature");
        }
        if (declaredLength >= 0 && size > declaredLength - decoded) {
            throw AuthException.invalidRequest("The chunks hold more data than x-amz-decoded-content-length declares");
        }
        if (size > 0) {
            chunkRemaining = size;
            return;
        }
        if (signing != null) {
            verifyChunkSignature(SigV4Crypto.EMPTY_SHA256);
        }
        if (declaredLength >= 0 && decoded != declaredLength) {
            throw AuthException.incompleteBody("You did not provide the number of bytes specified by the "
                    + "x-amz-decoded-content-length HTTP header");
        }
        readTrailers();
        done = true;
    }

    private static long parseSize(String text) {
        String digits = text.trim();
        if (digits.isEmpty() || digits.length() > MAX_SIZE_DIGITS) {
            throw AuthException.invalidRequest("Malformed aws-chunked body: invalid chunk size");
        }
        long size = 0;
        for (int i = 0; i < digits.length(); i++) {
            int digit = Character.digit(digits.charAt(i), 16);
            if (digit < 0) {
                throw AuthException.invalidRequest("Malformed aws-chunked body: invalid chunk size");
            }
            size = (size << 4) | digit;
        }
        return size;
    }

    private static String extension(String extensions, String name) {
        for (String item : extensions.split(";")) {
            int eq = item.indexOf('=');
            if (eq > 0 && item.substring(0, eq).trim().equals(name)) {
                return item.substring(eq + 1).trim();
            }
        }
        return null;
    }

    private void verifyChunkSignature(String dataSha256Hex) {
        String stringToSign = "AWS4-HMAC-SHA256-PAYLOAD\n" + signing.amzDate() + '\n' + signing.scope() + '\n'
                + previousSignature + '\n' + SigV4Crypto.EMPTY_SHA256 + '\n' + dataSha256Hex;
        String expected = SigV4Crypto.sign(mac, stringToSign);
        if (!SigV4Crypto.signaturesEqual(expected, chunkSignature)) {
            throw AuthException.signatureDoesNotMatch("The chunk signature we calculated does not match the "
                    + "chunk-signature you provided.");
        }
        previousSignature = expected;
    }

    private void readTrailers() throws IOException {
        Map<String, String> received = new LinkedHashMap<>();
        String signature = null;
        for (int count = 0; ; count++) {
            String text = readLine();
            if (text == null) {
                throw AuthException.incompleteBody("The body ended before the end of the trailing headers");
            }
            if (text.isBlank()) {
                break;
            }
            if (count == MAX_TRAILERS) {
                throw AuthException.malformedTrailer("Too many trailing headers");
            }
            int colon = text.indexOf(':');
            if (colon <= 0) {
                throw AuthException.malformedTrailer("A trailing header is not name:value");
            }
            String name = text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = text.substring(colon + 1).trim();
            if (name.equals(TRAILER_SIGNATURE)) {
                signature = value;
            } else if (!declaredTrailers.contains(name)) {
                throw AuthException.malformedTrailer("The trailing header " + name + " was not declared in "
                        + "x-amz-trailer");
            } else if (received.putIfAbsent(name, value) != null) {
                throw AuthException.malformedTrailer("The trailing header " + name + " was sent twice");
            }
        }
        if (mode == PayloadMode.STREAMING_SIGNED_TRAILER) {
            verifyTrailerSignature(received, signature);
        }
        for (String name : declaredTrailers) {
            if (!received.containsKey(name)) {
                throw AuthException.malformedTrailer("The trailing header " + name + " declared in x-amz-trailer "
                        + "was not sent");
            }
        }
        for (StreamingChecksum checksum : checksums) {
            ChecksumAlgorithm algorithm = checksum.algorithm();
            String sent = received.get(algorithm.headerName());
            if (!checksum.base64().equals(sent)) {
                throw new AuthException("BadDigest", 400, "The " + algorithm.s3Name() + " you specified did not "
                        + "match the calculated checksum.");
            }
        }
        trailers = Collections.unmodifiableMap(received);
    }

    private void verifyTrailerSignature(Map<String, String> received, String signature) {
        if (!SigV4Crypto.isLowerHex(signature, 64)) {
            throw AuthException.signatureDoesNotMatch("The trailing headers have no valid x-amz-trailer-signature");
        }
        StringBuilder canonical = new StringBuilder();
        new TreeMap<>(received).forEach((name, value) -> canonical.append(name).append(':').append(value).append('\n'));
        String stringToSign = "AWS4-HMAC-SHA256-TRAILER\n" + signing.amzDate() + '\n' + signing.scope() + '\n'
                + previousSignature + '\n' + SigV4Crypto.sha256Hex(canonical.toString());
        String expected = SigV4Crypto.sign(mac, stringToSign);
        if (!SigV4Crypto.signaturesEqual(expected, signature)) {
            throw AuthException.signatureDoesNotMatch("The trailer signature we calculated does not match the "
                    + "x-amz-trailer-signature you provided.");
        }
        previousSignature = expected;
    }

    private void expectCrlf() throws IOException {
        int cr = nextByte();
        int lf = cr == '\r' ? nextByte() : -2;
        if (cr == -1 || lf == -1) {
            throw AuthException.incompleteBody("The body ended after a chunk's data");
        }
        if (cr != '\r' || lf != '\n') {
            throw AuthException.invalidRequest("Malformed aws-chunked body: a chunk's data is longer than its size");
        }
    }

    private int nextByte() throws IOException {
        if (pos == limit && !fill()) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    /** The next CRLF-terminated line without its CRLF, or null at end of stream before any byte. */
    private String readLine() throws IOException {
        int length = 0;
        while (true) {
            int c = nextByte();
            if (c < 0) {
                if (length == 0) {
                    return null;
                }
                throw AuthException.incompleteBody("The body ended inside a chunk header or trailer");
            }
            if (c == '\n' && length > 0 && line[length - 1] == '\r') {
                return new String(line, 0, length - 1, StandardCharsets.ISO_8859_1);
            }
            if (length == line.length) {
                throw AuthException.invalidRequest("Malformed aws-chunked body: a chunk header or trailer is too long");
            }
            line[length++] = (byte) c;
        }
    }

    @Override
    public int available() {
        if (failure != null || done) {
            return 0;
        }
        return (int) Math.min(limit - pos, chunkRemaining);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
