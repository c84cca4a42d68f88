package dev.cairn.engine.vlog;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Appends records to a new value file (layout in {@code docs/format/value-file.md}) and returns
 * a {@link ValuePointer} to each value.
 *
 * <p>Records are gathered in a {@value #BUFFER_SIZE}-byte buffer and handed to the file when it
 * fills; a value larger than the buffer goes to the file directly, uncopied. A value becomes
 * readable through {@link ValueFileReader} only after {@link #flush()}, which hands the buffer
 * to the file without syncing and is cheap: the engine calls it before it makes pointers
 * visible. {@link #sync()} makes everything appended durable and, on its first call, the file's
 * directory entry as well.
 *
 * <p>After a failed write the file's state is unknown, so every later call fails too.
 *
 * <p>Not thread-safe: one writer thread per file.
 */
public final class ValueFileWriter implements Closeable {
    static final int BUFFER_SIZE = 64 * 1024;

    private final FileSystem fs;
    private final Path directory;
    private final Path path;
    private final long fileNumber;
    private final WritableFile file;
    private final byte[] buffer = new byte[BUFFER_SIZE];
    private final byte[] recordHeader = new byte[ValueFileFormat.RECORD_HEADER_SIZE];
    private final CRC32C crc = new CRC32C();
    private int buffered;
    private long size;
    private boolean directorySynced;
    private boolean closed;
    private IOException failure;

    private ValueFileWriter(FileSystem fs, Path directory, long fileNumber, WritableFile file) {
        this.fs = fs;
        this.directory = directory;
        this.path = directory.resolve(ValueFileFormat.fileName(fileNumber));
        this.fileNumber = fileNumber;
        this.file = file;
    }

    /**
     * Creates {@code directory/NNNNNN.vlog} (replacing any file of that name) and writes its header,
     * so that a reader can open the file at once.
     */
    public static ValueFileWriter create(FileSystem fs, Path directory, long fileNumber, WriteLifetime lifetime)
            throws IOException {
        Path path = directory.resolve(ValueFileFormat.fileName(fileNumber));
        ValueFileWriter writer = new ValueFileWriter(fs, directory, fileNumber, fs.create(path, lifetime));
        try {
            writer.put(ValueFileFormat.encodeHeader());
            writer.writeBuffer();
        } catch (IOException e) {
            writer.file.close();
            throw e;
        }
        return writer;
    }

    /**
     * Appends one record; the pointer is valid for readers once {@link #flush()} has returned.
     * {@code key} is stored so that garbage collection can look the value's owner up.
     */
    public ValuePointer append(byte[] key, byte[] value) throws IOException {
        ensureWritable();
        if (key.length > ValueFileFormat.MAX_KEY_LENGTH || value.length > ValueFileFormat.MAX_VALUE_LENGTH) {
            throw new IllegalArgumentException("record too large for a value file: key " + key.length + " bytes (max "
                    + ValueFileFormat.MAX_KEY_LENGTH + "), value " + value.length + " bytes (max "
                    + ValueFileFormat.MAX_VALUE_LENGTH + ")");
        }
        ByteBuffer.wrap(recordHeader).putInt(0).putInt(key.length).putInt(value.length);
        crc.reset();
        crc.update(recordHeader, 4, ValueFileFormat.RECORD_HEADER_SIZE - 4);
        crc.update(key);
        crc.update(value);
        ByteBuffer.wrap(recordHeader).putInt((int) crc.getValue());
        int valueCrc = valueCrc(value);

        long recordOffset = size;
        try {
            put(recordHeader);
            put(key);
            put(value);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
        return new ValuePointer(fileNumber, recordOffset + ValueFileFormat.RECORD_HEADER_SIZE + key.length,
                value.length, valueCrc);
    }

    private int valueCrc(byte[] value) {
        crc.reset();
        crc.update(value);
        return (int) crc.getValue();
    }

    /** Hands buffered records to the file, without syncing: readers can then read them. */
    public void flush() throws IOException {
        ensureWritable();
        try {
            writeBuffer();
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    /** Flushes and makes everything appended so far durable. */
    public void sync() throws IOException {
        flush();
        try {
            file.sync();
            if (!directorySynced) {
                fs.syncDirectory(directory);
                directorySynced = true;
            }
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    /** The file's length once everything appended is flushed: the offset of the next record. */
    public long size() {
        return size;
    }

    public long fileNumber() {
        return fileNumber;
    }

    public Path path() {
        return path;
    }

    /** Flushes (unless a write failed) and closes the file, without syncing. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (failure == null) {
                writeBuffer();
            }
        } finally {
            file.close();
        }
    }

    private void put(byte[] bytes) throws IOException {
        if (bytes.length > BUFFER_SIZE - buffered) {
            writeBuffer();
        }
        if (bytes.length >= BUFFER_SIZE) {
            file.append(ByteBuffer.wrap(bytes));
        } else {
            System.arraycopy(bytes, 0, buffer, buffered, bytes.length);
            buffered += bytes.length;
        }
        size += bytes.length;
    }

    private void writeBuffer() throws IOException {
        if (buffered > 0) {
            file.append(ByteBuffer.wrap(buffer, 0, buffered));
            buffered = 0;
        }
    }

    private void ensureWritable() throws IOException {
        if (closed) {
            throw new IOException("value file writer closed: " + path);
        }
        if (failure != null) {
            throw new IOException("an earlier write to " + path + " failed; the file is unusable", failure);
        }
    }
}
