package dev.cairn.backup.restore;

import dev.cairn.store.ContentSource;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import software.amazon.awssdk.http.ContentStreamProvider;

/**
 * The parts of one blob, in order, from one stream of it: each part's body is the next
 * {@code length} bytes, so the blob is read once and its SHA-256 (checked by the content's stream)
 * covers every byte sent. A part asked for again (the SDK retrying it) opens the blob anew and
 * reads up to the part, and the parts after it continue from that stream, which checks the whole
 * blob again at its end. Not thread-safe: the parts of one upload go one after the other.
 */
final class PartStreams implements AutoCloseable {
    private final ContentSource content;
    private InputStream blob;
    private long position;
    private int reopened;

    PartStreams(ContentSource content) {
        this.content = content;
    }

    /** The body of the part at {@code offset} of {@code length} bytes. */
    ContentStreamProvider part(long offset, long length) {
        return () -> {
            try {
                return bounded(offset, length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    private InputStream bounded(long offset, long length) throws IOException {
        if (blob == null || position != offset) {
            close();
            blob = content.open();
            position = 0;
            if (offset > 0) {
                reopened++;
            }
            byte[] skip = new byte[8192];
            while (position < offset) {
                int n = blob.read(skip, 0, (int) Math.min(skip.length, offset - position));
                if (n < 0) {
                    throw new IOException("blob " + content.sha256() + " ended before part offset " + offset);
                }
                position += n;
            }
        }
        InputStream from = blob;
        return new FilterInputStream(from) {
            private long left = length;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left == 0) {
                    return -1;
                }
                int n = from.read(b, off, (int) Math.min(len, left));
                if (n < 0) {
                    throw new IOException("blob " + content.sha256() + " ended inside a part");
                }
                left -= n;
                if (from == blob) {
                    position += n;
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                throw new IOException("a part's body is read, not skipped");
            }

            @Override
            public boolean markSupported() {
                return false;
            }

            @Override
            public void close() {
                // The blob stream goes on with the next part.
            }
        };
    }

    /** How many times a part was asked for again and the blob read anew up to it. */
    int reopened() {
        return reopened;
    }

    @Override
    public void close() throws IOException {
        if (blob != null) {
            InputStream b = blob;
            blob = null;
            b.close();
        }
    }
}
