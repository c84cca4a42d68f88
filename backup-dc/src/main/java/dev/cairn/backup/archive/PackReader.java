package dev.cairn.backup.archive;

import dev.cairn.store.LimitedInputStream;
import dev.cairn.store.Hex;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads a pack front to back without its index: the header, then each blob (SHA-256 as recorded,
 * offset of its content, length, content), then the end tag and count. For verify, dump and
 * rewriting a pack. The content of one entry is readable until {@link #next()} is called again;
 * whatever of it was not read is skipped. Damage is an {@link IOException} naming the pack.
 * Not thread-safe.
 */
public final class PackReader implements AutoCloseable {
    /** One blob as the pack records it; {@code content} yields exactly {@code length} bytes unless the pack is cut short. */
    public record Entry(String sha256, long offset, long length, InputStream content) {
    }

    private final String name;
    private final DataInputStream in;
    private final String packId;
    private long position = PackFormat.HEADER_BYTES;
    private long count;
    private LimitedInputStream open;
    private long openEnd;
    private boolean ended;

    public PackReader(String name, InputStream source) throws IOException {
        this.name = name;
        this.in = new DataInputStream(new BufferedInputStream(source, 1 << 16));
        try {
            byte[] magic = in.readNBytes(8);
            if (!Arrays.equals(magic, PackFormat.PACK_MAGIC)) {
                throw new IOException(name + ": not a pack (bad magic)");
            }
            int version = in.readUnsignedShort();
            if (version != PackFormat.VERSION) {
                throw new IOException(name + ": pack version " + version + " is not supported (this build reads "
                        + PackFormat.VERSION + ")");
            }
            packId = Hex.encode(in.readNBytes(PackFormat.ID_BYTES));
        } catch (EOFException e) {
            throw new IOException(name + ": corrupt pack: truncated header");
        }
    }

    public String packId() {
        return packId;
    }

    /** Bytes read so far, header and entries; after the end, the pack's size. */
    public long position() {
        return position;
    }

    /** The next blob, or null after the end tag (its count checked, nothing after it). */
    public Entry next() throws IOException {
        if (ended) {
            return null;
        }
        try {
            if (open != null) {
                in.skipNBytes(openEnd - position());
                position = openEnd;
                open = null;
            }
            int tag = in.read();
            if (tag == PackFormat.TAG_END) {
                long n = in.readLong();
                position += 9;
                if (n != count) {
                    throw new IOException(name + ": corrupt pack: end tag counts " + n + " blobs, the pack holds " + count);
                }
                if (in.read() != -1) {
                    throw new IOException(name + ": corrupt pack: bytes after the end tag");
                }
                ended = true;
                return null;
            }
            if (tag != PackFormat.TAG_BLOB) {
                throw new IOException(name + ": corrupt pack: " + (tag < 0 ? "no end tag" : "unexpected tag " + tag)
                        + " at offset " + position + " after " + count + " blobs");
            }
            byte[] sha = new byte[32];
            in.readFully(sha);
            long length = in.readLong();
            if (length < 0) {
                throw new IOException(name + ": corrupt pack: negative length at offset " + position);
            }
            position += PackFormat.ENTRY_HEADER_BYTES;
            count++;
            long start = position;
            openEnd = start + length;
            open = new LimitedInputStream(new CountingStream(), length);
            return new Entry(Hex.encode(sha), start, length, open);
        } catch (EOFException e) {
            throw new IOException(name + ": corrupt pack: truncated at offset " + position + " after " + count + " blobs");
        }
    }

    /** The underlying stream, counting what an entry's reader consumes. */
    private final class CountingStream extends InputStream {
        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                position++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                position += n;
            }
            return n;
        }

        @Override
        public void close() {
            // the pack stays open for the next entry
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
