package dev.cairn.service.auth;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Objects;

/**
 * Passes a body through and, at its end, checks its SHA-256 against the signed
 * {@code x-amz-content-sha256}. Not thread-safe.
 */
final class Sha256VerifyingInputStream extends InputStream {
    private final InputStream in;
    private final String expectedHex;
    private final MessageDigest sha256 = SigV4Crypto.sha256();
    private boolean verified;
    private AuthFailureIOException failure;

    Sha256VerifyingInputStream(InputStream in, String expectedHex) {
        this.in = in;
        this.expectedHex = expectedHex.toLowerCase(Locale.ROOT);
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
        if (verified) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n = in.read(b, off, len);
        if (n > 0) {
            sha256.update(b, off, n);
            return n;
        }
        if (n < 0) {
            verify();
        }
        return n;
    }

    private void verify() throws AuthFailureIOException {
        String actual = SigV4Crypto.HEX.formatHex(sha256.digest());
        if (!actual.equals(expectedHex)) {
            failure = new AuthFailureIOException(new AuthException("XAmzContentSHA256Mismatch", 400,
                    "The provided 'x-amz-content-sha256' header does not match what was computed."));
            throw failure;
        }
        verified = true;
    }

    boolean verified() {
        return verified;
    }

    String expectedHex() {
        return expectedHex;
    }

    @Override
    public int available() throws IOException {
        return verified || failure != null ? 0 : in.available();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
