package dev.cairn.engine.vlog;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.util.Checksums;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Point reads of values by {@link ValuePointer}: each is one positional read of the value bytes,
 * checked against the pointer's CRC32C. The header is checked once, at {@link #open}.
 *
 * <p>Thread-safe: any number of threads may read at once.
 */
public final class ValueFileReader implements Closeable {
    private final ReadableFile file;
    private final Path path;
    private final long fileNumber;

    private ValueFileReader(ReadableFile file, Path path, long fileNumber) {
        this.file = file;
        this.path = path;
        this.fileNumber = fileNumber;
    }

    /**
     * Opens a value file and checks its header: a file that is not a value file fails with
     * {@link CorruptionException}, one of a newer format version with an {@link IOException}
     * that says so.
     */
    public static ValueFileReader open(FileSystem fs, Path path, long fileNumber) throws IOException {
        ValueFileFormat.checkFileNumber(fileNumber);
        return open(fs.openRead(path), path, fileNumber);
    }

    /**
     * {@link #open(FileSystem, Path, long)} for one reader's traversal around the page cache
     * ({@link FileSystem#openReadAroundPageCache}): for {@link #readSpan} of large spans.
     */
    public static ValueFileReader openAroundPageCache(FileSystem fs, Path path, long fileNumber) throws IOException {
        ValueFileFormat.checkFileNumber(fileNumber);
        return open(fs.openReadAroundPageCache(path), path, fileNumber);
    }

    private static ValueFileReader open(ReadableFile file, Path path, long fileNumber) throws IOException {
        try {
            long size = file.size();
            if (size < ValueFileFormat.HEADER_SIZE) {
                throw new CorruptionException("value file " + path + " is " + size + " bytes, shorter than its "
                        + ValueFileFormat.HEADER_SIZE + "-byte header");
            }
            ValueFileFormat.checkHeader(file.readFully(0, ValueFileFormat.HEADER_SIZE), path);
            return new ValueFileReader(file, path, fileNumber);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** The value {@code pointer} points at; never bytes that fail its checksum. */
    public byte[] read(ValuePointer pointer) throws IOException {
        if (pointer.fileNumber() != fileNumber) {
            throw new IllegalArgumentException("pointer into value file " + pointer.fileNumber() + " given to the reader of "
                    + path);
        }
        long offset = pointer.offset();
        if (offset < ValueFileFormat.HEADER_SIZE + ValueFileFormat.RECORD_HEADER_SIZE) {
            throw new CorruptionException("value file " + path + ": pointer offset " + offset
                    + " lies inside the file header");
        }
        if (offset + pointer.length() > file.size()) {
            throw new CorruptionException("value file " + path + ": value at offset " + offset + " of length "
                    + pointer.length() + " extends past the end of the file (" + file.size() + " bytes)");
        }
        byte[] value;
        try {
            value = file.readFully(offset, pointer.length());
        } catch (EOFException e) {
            throw new CorruptionException("value file " + path + ": value at offset " + offset + " of length "
                    + pointer.length() + " extends past the end of the file");
        }
        if (Checksums.crc32c(value) != pointer.crc32c()) {
            throw new CorruptionException("value file " + path + ": checksum mismatch for the value at offset " + offset
                    + " of length " + pointer.length());
        }
        return value;
    }

    /**
     * Reads the {@code length} bytes at {@code offset} into {@code buffer}, unchecked: a span
     * holding several values, each of which the caller checks against its pointer. A span that
     * starts inside the file header or reaches past the end of the file is damage, as for
     * {@link #read}.
     */
    public void readSpan(long offset, byte[] buffer, int length) throws IOException {
        if (offset < ValueFileFormat.HEADER_SIZE + ValueFileFormat.RECORD_HEADER_SIZE) {
            throw new CorruptionException("value file " + path + ": pointer offset " + offset
                    + " lies inside the file header");
        }
        if (offset + length > file.size()) {
            throw new CorruptionException("value file " + path + ": values up to offset " + (offset + length)
                    + " extend past the end of the file (" + file.size() + " bytes)");
        }
        try {
            file.readFully(offset, java.nio.ByteBuffer.wrap(buffer, 0, length));
        } catch (EOFException e) {
            throw new CorruptionException("value file " + path + ": values up to offset " + (offset + length)
                    + " extend past the end of the file");
        }
    }

    public long fileNumber() {
        return fileNumber;
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
