package dev.cairn.backup.run;

import dev.cairn.backup.target.ContentMismatchException;
import dev.cairn.backup.target.SourceReadException;
import dev.cairn.store.Hex;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/**
 * Passes bytes through and checks their count and SHA-256: a mismatch is thrown from the read
 * that yields the expected size's last byte (a reader that stops there, such as
 * {@code readNBytes(size)}, is checked too), or from the read that finds the stream ended early
 * or going on past that size. A writer never commits wrong bytes.
 */
public final class HashCheckingInputStream extends FilterInputStream {
    private final String expectedSha256;
    private final long expectedSize;
    private final String what;
    private final MessageDigest digest;
    private long count;
    private boolean checked;

    public HashCheckingInputStream(InputStream in, String expectedSha256, long expectedSize, String what) {
        super(in);
        this.expectedSha256 = expectedSha256;
        this.expectedSize = expectedSize;
        this.what = what;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = in.read(b, off, len);
        } catch (IOException e) {
            throw e instanceof SourceReadException ? e : new SourceReadException(what + ": read failed: " + e.getMessage(), e);
        }
        if (n < 0) {
            check();
            return -1;
        }
        if (count + n > expectedSize) {
            throw new ContentMismatchException(what + ": expected " + expectedSize + " bytes, read more");
        }
        digest.update(b, off, n);
        count += n;
        if (count == expectedSize) {
            check();
        }
        return n;
    }

    @Override
    public long skip(long n) {
        throw new UnsupportedOperationException("skip would bypass the hash check");
    }

    private void check() throws IOException {
        if (checked) {
            return;
        }
        checked = true;
        if (count != expectedSize) {
            throw new ContentMismatchException(what + ": expected " + expectedSize + " bytes, read " + count);
        }
        String actual = Hex.encode(digest.digest());
        if (!actual.equals(expectedSha256)) {
            throw new ContentMismatchException(what + ": content hashes to " + actual + ", expected "
                    + expectedSha256);
        }
    }

    /** Reads to the end (checking), discarding the bytes; returns the byte count. */
    public long drain() throws IOException {
        byte[] buf = new byte[64 * 1024];
        while (read(buf, 0, buf.length) >= 0) {
            // counted and hashed by read
        }
        return count;
    }
}
