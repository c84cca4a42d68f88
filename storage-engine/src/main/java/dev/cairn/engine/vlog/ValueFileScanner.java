package dev.cairn.engine.vlog;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.util.Checksums;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads a value file's records in order, for garbage collection, recovery and the dump tool.
 * Every record returned has passed its checksum.
 *
 * <p>A crash can leave a torn tail: the last record incomplete, failing its checksum, or
 * followed only by zero bytes. The scan stops cleanly there and {@link #validLength()} says where
 * the intact records end. A record failing its checksum with bytes other than zeros after it is
 * damage in the middle of the file, and {@link #next()} throws {@link CorruptionException}.
 * Lengths beyond {@link ValueFileFormat#MAX_KEY_LENGTH} or {@link ValueFileFormat#MAX_VALUE_LENGTH}
 * are never written, so they count as damage. One case cannot be told apart: damage to a length
 * field that keeps it within those limits but makes the record reach past the end of the file
 * looks like a torn tail there. The records after it are then not returned; a pointer into them
 * still reads its value, checked by the pointer's own checksum, so wrong bytes are never returned.
 *
 * <p>A record whose checksum fails while a whole block of its value reads as zeros had its
 * dead value's space given back ({@link ValueHoles}); the scan returns it marked reclaimed and
 * goes on after it.
 *
 * <p>The scan covers the bytes present when it was opened. Not thread-safe: one thread scans.
 */
public final class ValueFileScanner implements Closeable {
    private static final int WINDOW_SIZE = 256 * 1024;

    /**
     * One record: its own offset, the stored key, a pointer to its value, and the value bytes
     * if the scanner was opened with values ({@code null} otherwise). A {@code reclaimed} record
     * is one whose dead value's space was given back ({@link ValueHoles}): its key is as stored
     * but unverified, its pointer's checksum is 0, and its value is {@code null}.
     */
    public record Entry(long recordOffset, byte[] key, ValuePointer pointer, byte[] value, boolean reclaimed) {
        /** The offset just past this record, where the next one begins. */
        public long endOffset() {
            return pointer.offset() + pointer.length();
        }
    }

    private final ReadableFile file;
    private final Path path;
    private final long fileNumber;
    private final boolean withValues;
    private final long fileSize;
    private final byte[] window = new byte[WINDOW_SIZE];
    private final CRC32C crc = new CRC32C();
    private long windowStart;
    private int windowLength;
    private long position;
    private boolean done;
    private boolean tornTail;

    private ValueFileScanner(ReadableFile file, Path path, long fileNumber, boolean withValues, long fileSize) {
        this.file = file;
        this.path = path;
        this.fileNumber = fileNumber;
        this.withValues = withValues;
        this.fileSize = fileSize;
    }

    /**
     * Opens a scan. A file shorter than the header whose bytes begin a valid header (a crash
     * right after creation) scans as empty with a torn tail; other header damage throws as in
     * {@link ValueFileReader#open}.
     */
    public static ValueFileScanner open(FileSystem fs, Path path, long fileNumber, boolean withValues)
            throws IOException {
        ValueFileFormat.checkFileNumber(fileNumber);
        ReadableFile file = fs.openRead(path);
        try {
            long size = file.size();
            ValueFileScanner scanner = new ValueFileScanner(file, path, fileNumber, withValues, size);
            if (size < ValueFileFormat.HEADER_SIZE) {
                byte[] present = file.readFully(0, (int) size);
                if (!Arrays.equals(present, 0, present.length, ValueFileFormat.encodeHeader(), 0, present.length)) {
                    throw new CorruptionException("not a value file (bad header in its first " + size + " bytes): "
                            + path);
                }
                scanner.done = true;
                scanner.tornTail = size > 0;
            } else {
                ValueFileFormat.checkHeader(file.readFully(0, ValueFileFormat.HEADER_SIZE), path);
                scanner.position = ValueFileFormat.HEADER_SIZE;
            }
            return scanner;
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** The next intact record, or {@code null} at the end of the records. */
    public Entry next() throws IOException {
        if (done) {
            return null;
        }
        long recordOffset = position;
        long remaining = fileSize - recordOffset;
        if (remaining == 0) {
            done = true;
            return null;
        }
        if (remaining < ValueFileFormat.RECORD_HEADER_SIZE) {
            return stopAtTornTail();
        }
        int at = fill(recordOffset, ValueFileFormat.RECORD_HEADER_SIZE);
        ByteBuffer header = ByteBuffer.wrap(window, at, ValueFileFormat.RECORD_HEADER_SIZE);
        int storedCrc = header.getInt();
        long keyLength = Integer.toUnsignedLong(header.getInt());
        long valueLength = Integer.toUnsignedLong(header.getInt());
        long end = recordOffset + ValueFileFormat.RECORD_HEADER_SIZE + keyLength + valueLength;
        if (keyLength > ValueFileFormat.MAX_KEY_LENGTH || valueLength > ValueFileFormat.MAX_VALUE_LENGTH) {
            return badRecord(recordOffset, -1, "has impossible lengths (key " + keyLength + ", value " + valueLength
                    + ")");
        }
        if (end > fileSize) {
            return stopAtTornTail();
        }
        crc.reset();
        crc.update(window, at + 4, ValueFileFormat.RECORD_HEADER_SIZE - 4);
        long keyOffset = recordOffset + ValueFileFormat.RECORD_HEADER_SIZE;
        byte[] key = bytesAt(keyOffset, (int) keyLength);
        byte[] value = bytesAt(keyOffset + keyLength, (int) valueLength);
        crc.update(key);
        crc.update(value);
        if ((int) crc.getValue() != storedCrc) {
            if (ValueHoles.holdsZeroBlock(value, keyOffset + keyLength)) {
                position = end;
                return new Entry(recordOffset, key, new ValuePointer(fileNumber, keyOffset + keyLength,
                        (int) valueLength, 0), null, true);
            }
            return badRecord(recordOffset, end, "fails its checksum");
        }
        position = end;
        ValuePointer pointer = new ValuePointer(fileNumber, keyOffset + keyLength, (int) valueLength,
                Checksums.crc32c(value));
        return new Entry(recordOffset, key, pointer, withValues ? value : null, false);
    }

    /**
     * The length of the file's intact prefix: the end of the last record returned, or, once
     * {@link #next()} has returned {@code null}, of all intact records.
     */
    public long validLength() {
        return position;
    }

    /** Whether the scan ended at a torn tail, leaving bytes after {@link #validLength()}. */
    public boolean tornTail() {
        return tornTail;
    }

    /** The file's size when the scan was opened. */
    public long fileSize() {
        return fileSize;
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    private Entry stopAtTornTail() {
        done = true;
        tornTail = true;
        return null;
    }

    /** A record that is not intact: the torn tail if it ends the file or zeros follow, else damage. */
    private Entry badRecord(long recordOffset, long end, String problem) throws IOException {
        if (end == fileSize || onlyZerosFrom(recordOffset)) {
            return stopAtTornTail();
        }
        done = true;
        throw new CorruptionException("value file " + path + ": record at offset " + recordOffset + " " + problem
                + "; the file goes on to " + fileSize + " bytes");
    }

    private boolean onlyZerosFrom(long offset) throws IOException {
        for (long at = offset; at < fileSize; ) {
            int length = (int) Math.min(WINDOW_SIZE, fileSize - at);
            int from = fill(at, length);
            for (int i = from; i < from + length; i++) {
                if (window[i] != 0) {
                    return false;
                }
            }
            at += length;
        }
        return true;
    }

    /** {@code length} bytes at {@code offset}, through the read-ahead window unless too large for it. */
    private byte[] bytesAt(long offset, int length) throws IOException {
        if (length > WINDOW_SIZE) {
            return file.readFully(offset, length);
        }
        int from = fill(offset, length);
        return Arrays.copyOfRange(window, from, from + length);
    }

    /**
     * Makes the window hold {@code [offset, offset + length)}, reading ahead as far as the window
     * and the file allow; returns the index of {@code offset} in the window.
     * REQUIRES: {@code length <= WINDOW_SIZE} and {@code offset + length <= fileSize}.
     */
    private int fill(long offset, int length) throws IOException {
        if (offset >= windowStart && offset + length <= windowStart + windowLength) {
            return (int) (offset - windowStart);
        }
        int toRead = (int) Math.min(WINDOW_SIZE, fileSize - offset);
        file.readFully(offset, ByteBuffer.wrap(window, 0, toRead));
        windowStart = offset;
        windowLength = toRead;
        return 0;
    }
}
