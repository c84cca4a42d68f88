package dev.cairn.backup.archive;

import java.io.ByteArrayOutputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;

/**
 * A {@link DataOutput} that encodes into a buffer of its own and hands the sink whole buffers,
 * feeding an optional digest a buffer at a time. {@link DataOutputStream} writes each int and
 * long a byte at a time into the stream below, and a {@link java.security.DigestOutputStream}
 * under it updates its digest a byte at a time: for rows of many short fields that was most of
 * the cost of writing a manifest. Same bytes, big-endian as {@link DataOutputStream}. Not
 * thread-safe.
 */
public final class BufferedDataOutput implements DataOutput {
    private final OutputStream sink;
    private final MessageDigest digest;
    private final byte[] buffer;
    private int used;

    /** @param digest updated with every byte written, before the sink gets it; null for none */
    public BufferedDataOutput(OutputStream sink, int bufferBytes, MessageDigest digest) {
        if (bufferBytes < 8) {
            throw new IllegalArgumentException("a buffer holds at least a long");
        }
        this.sink = sink;
        this.digest = digest;
        this.buffer = new byte[bufferBytes];
    }

    private void room(int n) throws IOException {
        if (buffer.length - used < n) {
            drain();
        }
    }

    /** Hands what is buffered to the digest and the sink, without flushing the sink. */
    public void drain() throws IOException {
        if (used > 0) {
            if (digest != null) {
                digest.update(buffer, 0, used);
            }
            sink.write(buffer, 0, used);
            used = 0;
        }
    }

    /** {@link #drain()}, then flushes the sink. */
    public void flush() throws IOException {
        drain();
        sink.flush();
    }

    @Override
    public void write(int b) throws IOException {
        room(1);
        buffer[used++] = (byte) b;
    }

    @Override
    public void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len > buffer.length - used) {
            drain();
            if (len >= buffer.length) {
                if (digest != null) {
                    digest.update(b, off, len);
                }
                sink.write(b, off, len);
                return;
            }
        }
        System.arraycopy(b, off, buffer, used, len);
        used += len;
    }

    @Override
    public void writeBoolean(boolean v) throws IOException {
        write(v ? 1 : 0);
    }

    @Override
    public void writeByte(int v) throws IOException {
        write(v);
    }

    @Override
    public void writeShort(int v) throws IOException {
        room(2);
        buffer[used++] = (byte) (v >>> 8);
        buffer[used++] = (byte) v;
    }

    @Override
    public void writeChar(int v) throws IOException {
        writeShort(v);
    }

    @Override
    public void writeInt(int v) throws IOException {
        room(4);
        buffer[used++] = (byte) (v >>> 24);
        buffer[used++] = (byte) (v >>> 16);
        buffer[used++] = (byte) (v >>> 8);
        buffer[used++] = (byte) v;
    }

    @Override
    public void writeLong(long v) throws IOException {
        writeInt((int) (v >>> 32));
        writeInt((int) v);
    }

    @Override
    public void writeFloat(float v) throws IOException {
        writeInt(Float.floatToIntBits(v));
    }

    @Override
    public void writeDouble(double v) throws IOException {
        writeLong(Double.doubleToLongBits(v));
    }

    @Override
    public void writeBytes(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            write(s.charAt(i));
        }
    }

    @Override
    public void writeChars(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            writeChar(s.charAt(i));
        }
    }

    @Override
    public void writeUTF(String s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length() + 2);
        new DataOutputStream(bytes).writeUTF(s);
        write(bytes.toByteArray());
    }
}
