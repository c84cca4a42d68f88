package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Framing shared by the commit log and the manifest:
 * <pre>
 *   header:  magic (8 bytes) | formatVersion u32 | reserved u32 (0)          — 16 bytes
 *   record:  crc32c u32 | length u32 | payload (length bytes)
 * </pre>
 * All integers big-endian; the CRC32C covers the length field and the payload. Zeros after the
 * last record (written ahead by {@link Writer}) end the file as cleanly as its end does; a record
 * never starts with eight zero bytes, as the CRC32C of a zero length is not zero. Layout in
 * docs/format/commit-log.md and docs/format/manifest.md.
 */
final class RecordFile {
    static final int HEADER_BYTES = 16;
    static final int RECORD_HEADER_BYTES = 8;
    /** Largest record accepted on read; a larger length is treated as damage. */
    static final int MAX_RECORD_BYTES = 256 << 20;

    private RecordFile() {
    }

    /** Appends framed records to a new file. Not thread-safe. */
    static final class Writer implements AutoCloseable {
        private final WritableFile file;
        private final Path path;
        private final long zeroFillBytes;
        /** Where the zeros written ahead end; appends up to here need no metadata change. */
        private long zeroFilledTo;

        Writer(FileSystem fs, Path path, String magic, int version, WriteLifetime lifetime) throws IOException {
            this(fs, path, magic, version, lifetime, 0);
        }

        /**
         * @param zeroFillBytes when positive, the file is kept this far ahead of its records in
         *                      zeros made durable at once ({@link WritableFile#zeroFill}), so that
         *                      each record's sync writes data only; a crash leaves the zeros after
         *                      the last record, which {@link #read} takes for the file's end
         */
        Writer(FileSystem fs, Path path, String magic, int version, WriteLifetime lifetime, long zeroFillBytes)
                throws IOException {
            this.path = path;
            this.zeroFillBytes = zeroFillBytes;
            this.file = fs.create(path, lifetime);
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
            header.put(magicBytes(magic)).putInt(version).putInt(0).flip();
            file.append(header);
            zeroFillFor(0);
        }

        private void zeroFillFor(long recordBytes) throws IOException {
            if (zeroFillBytes > 0 && file.size() + recordBytes > zeroFilledTo) {
                long ahead = Math.max(zeroFillBytes, recordBytes);
                if (file.zeroFill(ahead)) {
                    zeroFilledTo = file.size() + ahead;
                }
            }
        }

        Path path() {
            return path;
        }

        /** Appends one record (not yet durable). */
        void append(byte[] payload) throws IOException {
            ByteBuffer framed = ByteBuffer.allocate(RECORD_HEADER_BYTES + payload.length);
            framed.putInt(0).putInt(payload.length).put(payload);
            CRC32C crc = new CRC32C();
            crc.update(framed.array(), 4, 4 + payload.length);
            framed.putInt(0, (int) crc.getValue());
            framed.flip();
            zeroFillFor(framed.remaining());
            file.append(framed);
        }

        long size() {
            return file.size();
        }

        void sync() throws IOException {
            file.sync();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /**
     * The records of a file, read until the first damaged or incomplete record. {@code validBytes}
     * is where the valid prefix ends and {@code damagedTail} tells whether anything followed it.
     */
    record Contents(List<byte[]> records, long validBytes, boolean damagedTail, long fileBytes) {
    }

    static Contents read(FileSystem fs, Path path, String magic, int supportedVersion) throws IOException {
        try (ReadableFile file = fs.openRead(path)) {
            long size = file.size();
            if (size < HEADER_BYTES) {
                if (size == 0) {
                    return new Contents(List.of(), 0, false, 0);
                }
                return new Contents(List.of(), 0, true, size);
            }
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
            file.readFully(0, header);
            header.flip();
            byte[] foundMagic = new byte[8];
            header.get(foundMagic);
            if (!java.util.Arrays.equals(foundMagic, magicBytes(magic))) {
                throw new CorruptionException("bad magic in " + path + ": not a " + magic.trim() + " file");
            }
            int version = header.getInt();
            if (version > supportedVersion || version < 1) {
                throw new IOException("unsupported " + magic.trim() + " format version " + version + " in " + path
                        + " (this build reads version " + supportedVersion + ")");
            }
            List<byte[]> records = new ArrayList<>();
            long at = HEADER_BYTES;
            ByteBuffer frame = ByteBuffer.allocate(RECORD_HEADER_BYTES);
            while (at + RECORD_HEADER_BYTES <= size) {
                frame.clear();
                file.readFully(at, frame);
                int crc = frame.getInt(0);
                int length = frame.getInt(4);
                if (length < 0 || length > MAX_RECORD_BYTES || at + RECORD_HEADER_BYTES + length > size) {
                    break;
                }
                byte[] payload = file.readFully(at + RECORD_HEADER_BYTES, length);
                CRC32C check = new CRC32C();
                check.update(frame.array(), 4, 4);
                check.update(payload);
                if ((int) check.getValue() != crc) {
                    break;
                }
                records.add(payload);
                at += RECORD_HEADER_BYTES + length;
            }
            return new Contents(records, at, at < size && !zerosFrom(file, at, size), size);
        }
    }

    /** Whether the file holds only zeros from {@code at} to {@code size}: written ahead, never used. */
    private static boolean zerosFrom(ReadableFile file, long at, long size) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(64 << 10);
        for (long pos = at; pos < size; pos += chunk.capacity()) {
            chunk.clear();
            chunk.limit((int) Math.min(chunk.capacity(), size - pos));
            file.readFully(pos, chunk);
            byte[] a = chunk.array();
            for (int i = 0; i < chunk.limit(); i++) {
                if (a[i] != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    static byte[] magicBytes(String magic) {
        byte[] bytes = magic.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length != 8) {
            throw new IllegalArgumentException("magic must be 8 ASCII bytes: " + magic);
        }
        return bytes;
    }
}
