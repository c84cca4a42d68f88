package dev.cairn.service.auth;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;

/**
 * One thread's workspace for checking a signature without building strings: the canonical
 * request is written as UTF-8 into a reused buffer, hashed by a reused SHA-256, followed in the
 * same buffer by the string to sign, which the caller's MAC signs; the result is compared with
 * the client's hex signature in place. The bytes are those of {@link CanonicalRequest#build}
 * encoded as UTF-8. Not thread-safe: use {@link #get()} within one call only.
 */
final class SignatureWorkspace {
    private static final ThreadLocal<SignatureWorkspace> THREAD = ThreadLocal.withInitial(SignatureWorkspace::new);
    private static final byte[] HEX_LOWER = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] STRING_TO_SIGN_PREFIX =
            (SigV4Verifier.ALGORITHM + '\n').getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SCOPE_SUFFIX =
            ('/' + SigV4Verifier.SERVICE + '/' + SigV4Verifier.TERMINATOR + '\n').getBytes(StandardCharsets.US_ASCII);
    private static final int HASH_BYTES = 32;

    private final MessageDigest sha256 = SigV4Crypto.sha256();
    private final byte[] hash = new byte[HASH_BYTES];
    private final byte[] signature = new byte[HASH_BYTES];
    private byte[] buffer = new byte[1024];
    private int length;
    private int canonicalLength;
    private String[] queryNames = new String[8];
    private String[] queryValues = new String[8];

    private SignatureWorkspace() {
    }

    /** This thread's workspace, emptied. */
    static SignatureWorkspace get() {
        SignatureWorkspace workspace = THREAD.get();
        workspace.length = 0;
        return workspace;
    }

    /** Method, canonical URI, canonical query, canonical headers, signed headers and payload hash. */
    void canonicalRequest(String method, String canonicalUri, List<CanonicalRequest.QueryParam> query,
                          String excludedParameter, SignedRequest request, List<String> signedHeaderNames,
                          String signedHeaders, String payloadHash) {
        length = 0;
        append(method);
        append('\n');
        append(canonicalUri);
        append('\n');
        appendCanonicalQuery(query, excludedParameter);
        append('\n');
        for (String name : signedHeaderNames) {
            append(name);
            append(':');
            List<String> values = request.headerValues(name);
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    append(',');
                }
                appendTrimmedCollapsed(values.get(i));
            }
            append('\n');
        }
        append('\n');
        append(signedHeaders);
        append('\n');
        append(payloadHash);
        canonicalLength = length;
    }

    /** A canonical request given whole (the rarer forms the verifier tries after the first). */
    void canonicalRequest(String canonical) {
        length = 0;
        append(canonical);
        canonicalLength = length;
    }

    /** The canonical request's bytes, for tests. */
    byte[] canonicalBytes() {
        return Arrays.copyOf(buffer, canonicalLength);
    }

    /**
     * Whether {@code provided} (64 lowercase hex digits) is the signature of the canonical request
     * written last, under {@code mac}'s key and the given time and scope. Compares in constant time.
     */
    boolean signatureMatches(Mac mac, String amzDate, String scopeDate, String region, String provided) {
        try {
            sha256.reset();
            sha256.update(buffer, 0, canonicalLength);
            sha256.digest(hash, 0, HASH_BYTES);
            length = canonicalLength;
            append(STRING_TO_SIGN_PREFIX);
            append(amzDate);
            append('\n');
            append(scopeDate);
            append('/');
            append(region);
            append(SCOPE_SUFFIX);
            ensure(2 * HASH_BYTES);
            for (byte b : hash) {
                buffer[length++] = HEX_LOWER[(b >> 4) & 0xf];
                buffer[length++] = HEX_LOWER[b & 0xf];
            }
            mac.update(buffer, canonicalLength, length - canonicalLength);
            mac.doFinal(signature, 0);
        } catch (DigestException | ShortBufferException e) {
            throw new IllegalStateException("a 32-byte buffer holds a SHA-256", e);
        }
        if (provided.length() != 2 * HASH_BYTES) {
            return false;
        }
        int difference = 0;
        for (int i = 0; i < HASH_BYTES; i++) {
            byte b = signature[i];
            difference |= HEX_LOWER[(b >> 4) & 0xf] ^ provided.charAt(2 * i);
            difference |= HEX_LOWER[b & 0xf] ^ provided.charAt(2 * i + 1);
        }
        return difference == 0;
    }

    private void appendCanonicalQuery(List<CanonicalRequest.QueryParam> params, String excludedName) {
        int count = 0;
        if (queryNames.length < params.size()) {
            queryNames = new String[params.size()];
            queryValues = new String[params.size()];
        }
        for (CanonicalRequest.QueryParam param : params) {
            if (param.rawName().equals(excludedName)) {
                continue;
            }
            String name = CanonicalRequest.normalizeQueryPart(param.rawName());
            String value = CanonicalRequest.normalizeQueryPart(param.rawValue());
            // Insertion sort by name, then value: clients mostly send the parameters sorted already.
            int i = count++;
            while (i > 0 && compare(queryNames[i - 1], queryValues[i - 1], name, value) > 0) {
                queryNames[i] = queryNames[i - 1];
                queryValues[i] = queryValues[i - 1];
                i--;
            }
            queryNames[i] = name;
            queryValues[i] = value;
        }
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                append('&');
            }
            append(queryNames[i]);
            append('=');
            append(queryValues[i]);
            queryNames[i] = null;
            queryValues[i] = null;
        }
    }

    private static int compare(String name1, String value1, String name2, String value2) {
        int byName = name1.compareTo(name2);
        return byName != 0 ? byName : value1.compareTo(value2);
    }

    /** The value trimmed, inner runs of spaces and tabs collapsed to one space. */
    private void appendTrimmedCollapsed(String value) {
        int start = 0;
        int end = value.length();
        for (int i = start; i < end; i++) {
            if (value.charAt(i) >= 0x80) {
                StringBuilder text = new StringBuilder(end);
                CanonicalRequest.appendTrimmedCollapsed(text, value);
                append(text.toString());
                return;
            }
        }
        while (start < end && isSpace(value.charAt(start))) {
            start++;
        }
        while (end > start && isSpace(value.charAt(end - 1))) {
            end--;
        }
        ensure(end - start);
        boolean previousSpace = false;
        for (int i = start; i < end; i++) {
            char c = value.charAt(i);
            if (isSpace(c)) {
                if (!previousSpace) {
                    buffer[length++] = ' ';
                }
                previousSpace = true;
            } else {
                buffer[length++] = (byte) c;
                previousSpace = false;
            }
        }
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    private void append(char ascii) {
        ensure(1);
        buffer[length++] = (byte) ascii;
    }

    private void append(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, length, bytes.length);
        length += bytes.length;
    }

    /** UTF-8, as {@link String#getBytes} encodes it: ASCII byte by byte, the rest through the JDK. */
    private void append(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                append(s.substring(i).getBytes(StandardCharsets.UTF_8));
                return;
            }
            buffer[length++] = (byte) c;
        }
    }

    private void ensure(int more) {
        if (length + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
        }
    }
}
