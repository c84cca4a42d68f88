package dev.cairn.backup.run;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.BufferedDataInput;
import dev.cairn.backup.archive.BufferedDataOutput;
import dev.cairn.backup.archive.RowCodec;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * A row chunk: rows in {@link BackupRow#ORDER}, each encoded as in a manifest, then tag 'E' and
 * the row count (8 bytes). Runs write one per split checkpoint; the manifest is their merge.
 */
public final class RowChunks {
    private RowChunks() {
    }

    public static byte[] encode(List<BackupRow> sortedRows) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(64, sortedRows.size() * 200));
        BufferedDataOutput out = new BufferedDataOutput(bytes, 1 << 16, null);
        for (BackupRow r : sortedRows) {
            RowCodec.writeRow(out, r);
        }
        out.writeByte(RowCodec.TAG_END);
        out.writeLong(sortedRows.size());
        out.flush();
        return bytes.toByteArray();
    }

    /** Reads a chunk's rows one by one; checks the count at the end. */
    public static final class Reader implements AutoCloseable {
        private final String name;
        private final BufferedDataInput in;
        private long count;
        private boolean ended;

        public Reader(String name, InputStream source) {
            this.name = name;
            in = new BufferedDataInput(source, 1 << 16, null);
        }

        /** The next row, or null at the end. */
        public BackupRow next() throws IOException {
            if (ended) {
                return null;
            }
            try {
                int tag = in.readUnsignedByte();
                if (RowCodec.isRow(tag)) {
                    count++;
                    return RowCodec.readRow(in, tag);
                }
                if (tag == RowCodec.TAG_END && in.readLong() == count) {
                    ended = true;
                    return null;
                }
                throw new IOException(name + ": corrupt row chunk after " + count + " rows");
            } catch (EOFException e) {
                throw new IOException(name + ": truncated row chunk after " + count + " rows");
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
