package dev.cairn.backup.archive;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/**
 * A {@link DataInput} that reads its source a buffer at a time and decodes from the buffer,
 * feeding an optional digest with the bytes consumed, a buffer at a time. {@link DataInputStream}
 * reads each int and long a byte at a time from the stream below (a lock each in
 * {@link java.io.BufferedInputStream}, a digest update each in a
 * {@link java.security.DigestInputStream}): for rows of many short fields that was most of the
 * cost of reading a manifest. Same bytes as {@link DataInputStream}. Not thread-safe.
 */
public final class BufferedDataInput implements DataInput, AutoCloseable {
    private final InputStream source;
    private final MessageDigest digest;
    private final byte[] buffer;
    private int position;
    private int limit;
    /** Bytes of the buffer before this index are in the digest. */
    private int digested;

    /** @param digest updated with every byte consumed; null for none */
    public BufferedDataInput(InputStream source, int bufferBytes, MessageDigest digest) {
        if (bufferBytes < 8) {
            throw new IllegalArgumentException("a buffer holds at least a long");
        }
        this.source = source;
        this.digest = digest;
        this.buffer = new byte[bufferBytes];
    }

    /** Makes {@code n} bytes (at most the buffer's size) available, or throws {@link EOFException}. */
    private void need(int n) throws IOException {
        while (limit - position < n) {
            if (!fill()) {
                throw new EOFException();
            }
        }
    }

    /** Reads more after what is buffered; false at the end of the source. */
    private boolean fill() throws IOException {
        if (position > 0) {
            digestConsumed();
            System.arraycopy(buffer, position, buffer, 0, limit - position);
            limit -= position;
            position = 0;
            digested = 0;
        }
        int n = source.read(buffer, limit, buffer.length - limit);
        if (n < 0) {
            return false;
        }
        limit += n;
        return true;
    }

    private void digestConsumed() {
        if (digest != null && position > digested) {
            digest.update(buffer, digested, position - digested);
        }
        digested = position;
    }

    /** The digest of every byte consumed so far (and the digest reset). */
    public byte[] digestSoFar() {
        digestConsumed();
        return digest.digest();
    }

    /** Reads up to {@code n} bytes without feeding the digest; fewer only at the end of the source. */
    public byte[] readUndigested(int n) throws IOException {
        digestConsumed();
        byte[] out = new byte[n];
        int got = 0;
        while (got < n) {
            if (position == limit && !fill()) {
                break;
            }
            int k = Math.min(n - got, limit - position);
            System.arraycopy(buffer, position, out, got, k);
            position += k;
            got += k;
            digested = position;
        }
        return got == n ? out : java.util.Arrays.copyOf(out, got);
    }

    /** Whether the source has no byte left. */
    public boolean atEnd() throws IOException {
        return position == limit && !fill();
    }

    @Override
    public void readFully(byte[] b) throws IOException {
        readFully(b, 0, b.length);
    }

    @Override
    public void readFully(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        while (len > 0) {
            if (position == limit && !fill()) {
                throw new EOFException();
            }
            int k = Math.min(len, limit - position);
            System.arraycopy(buffer, position, b, off, k);
            position += k;
            off += k;
            len -= k;
        }
    }

    @Override
    public int skipBytes(int n) throws IOException {
        int skipped = 0;
        while (skipped < n && (position < limit || fill())) {
            int k = Math.min(n - skipped, limit - position);
            position += k;
            skipped += k;
        }
        return skipped;
    }

    @Override
    public boolean readBoolean() throws IOException {
        return readUnsignedByte() != 0;
    }

    @Override
    public byte readByte() throws IOException {
        return (byte) readUnsignedByte();
    }

    @Override
    public int readUnsignedByte() throws IOException {
        need(1);
        return buffer[position++] & 0xff;
    }

    @Override
    public short readShort() throws IOException {
        return (short) readUnsignedShort();
    }

    @Override
    public int readUnsignedShort() throws IOException {
        need(2);
        int v = (buffer[position] & 0xff) << 8 | buffer[position + 1] & 0xff;
        position += 2;
        return v;
    }

    @Override
    public char readChar() throws IOException {
        return (char) readUnsignedShort();
    }

    @Override
    public int readInt() throws IOException {
        need(4);
        int p = position;
        position += 4;
        return (buffer[p] & 0xff) << 24 | (buffer[p + 1] & 0xff) << 16 | (buffer[p + 2] & 0xff) << 8 | buffer[p + 3] & 0xff;
    }

    @Override
    public long readLong() throws IOException {
        return (long) readInt() << 32 | readInt() & 0xffffffffL;
    }

    @Override
    public float readFloat() throws IOException {
        return Float.intBitsToFloat(readInt());
    }

    @Override
    public double readDouble() throws IOException {
        return Double.longBitsToDouble(readLong());
    }

    /** A line of Latin-1 characters up to {@code \n}, {@code \r} or {@code \r\n}, as {@link DataInputStream#readLine}. */
    @Override
    public String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            if (position == limit && !fill()) {
                return line.length() == 0 ? null : line.toString();
            }
            int c = buffer[position++] & 0xff;
            if (c == '\n') {
                return line.toString();
            }
            if (c == '\r') {
                if ((position < limit || fill()) && buffer[position] == '\n') {
                    position++;
                }
                return line.toString();
            }
            line.append((char) c);
        }
    }

    @Override
    public String readUTF() throws IOException {
        return DataInputStream.readUTF(this);
    }

    @Override
    public void close() throws IOException {
        source.close();
    }
}
