package dev.cairn.backup.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The buffered codecs write and read exactly what DataOutputStream / DataInputStream do, whatever the buffer size. */
class BufferedDataTest {
    private static void writeSample(DataOutput out, Random r) throws IOException {
        for (int i = 0; i < 2000; i++) {
            out.writeByte(r.nextInt());
            out.writeShort(r.nextInt());
            out.writeInt(r.nextInt());
            out.writeLong(r.nextLong());
            out.writeBoolean(r.nextBoolean());
            out.writeChar(r.nextInt());
            out.writeFloat(r.nextFloat());
            out.writeDouble(r.nextDouble());
            byte[] b = new byte[r.nextInt(i % 50 == 0 ? 300 : 20)];
            r.nextBytes(b);
            out.write(b);
            out.writeUTF("ü-" + i);
            out.writeBytes("ab");
            out.writeChars("cd");
        }
    }

    private static void readSample(DataInput in, Random r) throws IOException {
        for (int i = 0; i < 2000; i++) {
            assertEquals((byte) r.nextInt(), in.readByte());
            assertEquals((short) r.nextInt(), in.readShort());
            assertEquals(r.nextInt(), in.readInt());
            assertEquals(r.nextLong(), in.readLong());
            assertEquals(r.nextBoolean(), in.readBoolean());
            assertEquals((char) r.nextInt(), in.readChar());
            assertEquals(r.nextFloat(), in.readFloat());
            assertEquals(r.nextDouble(), in.readDouble());
            byte[] b = new byte[r.nextInt(i % 50 == 0 ? 300 : 20)];
            r.nextBytes(b);
            byte[] got = new byte[b.length];
            in.readFully(got);
            assertArrayEquals(b, got);
            assertEquals("ü-" + i, in.readUTF());
            assertEquals('a', in.readUnsignedByte());
            assertEquals('b', in.readUnsignedByte());
            assertEquals('c', in.readChar());
            assertEquals('d', in.readChar());
        }
    }

    private static byte[] reference() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        writeSample(out, new Random(7));
        out.flush();
        return bytes.toByteArray();
    }

    /** Hands out at most a few bytes per read, as a network stream may. */
    private static InputStream trickle(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 3));
            }
        };
    }

    @Test
    void writesWhatDataOutputStreamWritesAndDigestsIt() throws Exception {
        byte[] expected = reference();
        for (int size : new int[] {8, 13, 64, 1 << 16}) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            BufferedDataOutput out = new BufferedDataOutput(bytes, size, digest);
            writeSample(out, new Random(7));
            out.flush();
            assertArrayEquals(expected, bytes.toByteArray(), "buffer of " + size);
            assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(expected), digest.digest(), "buffer of " + size);
        }
    }

    @Test
    void readsWhatDataInputStreamReadsAndDigestsIt() throws Exception {
        byte[] body = reference();
        byte[] tail = {1, 2, 3, 4, 5};
        byte[] file = Arrays.copyOf(body, body.length + tail.length);
        System.arraycopy(tail, 0, file, body.length, tail.length);
        readSample(new DataInputStream(new ByteArrayInputStream(file)), new Random(7));
        for (int size : new int[] {8, 13, 64, 1 << 16}) {
            for (boolean slow : new boolean[] {false, true}) {
                BufferedDataInput in = new BufferedDataInput(slow ? trickle(file) : new ByteArrayInputStream(file), size,
                        MessageDigest.getInstance("SHA-256"));
                readSample(in, new Random(7));
                assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(body), in.digestSoFar());
                assertFalse(in.atEnd());
                assertArrayEquals(tail, in.readUndigested(10));
                assertTrue(in.atEnd());
                assertThrows(EOFException.class, in::readInt);
            }
        }
    }

    @Test
    void aTruncatedValueIsAnEndOfFile() {
        BufferedDataInput in = new BufferedDataInput(new ByteArrayInputStream(new byte[] {0, 0, 0, 1, 0, 0}), 8, null);
        assertThrows(EOFException.class, () -> {
            in.readInt();
            in.readInt();
        });
    }
}
