package dev.cairn.backup.target;

import dev.cairn.store.LimitedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where an archive lives: named files under one root ('/'-separated names). Every write is
 * atomic: a name holds a complete file or nothing. Errors are {@link IOException}s whose message
 * names the target and what failed (unreachable, full, access denied).
 *
 * <p>Thread-safety: implementations are safe for concurrent use.
 */
public interface Target extends AutoCloseable {

    /** e.g. {@code dir:/backups} or {@code s3://bucket/prefix at http://host:port}. */
    String describe();

    /** The file's size, or -1 when absent. */
    long size(String name) throws IOException;

    /** The file from {@code offset} to its end, or null when absent. Close it. */
    InputStream open(String name, long offset) throws IOException;

    default InputStream open(String name) throws IOException {
        return open(name, 0);
    }

    /**
     * {@code length} bytes of the file from {@code offset} (a blob inside a pack), or null when the
     * file is absent; the stream ends early when the file does. Close it.
     */
    default InputStream open(String name, long offset, long length) throws IOException {
        InputStream in = open(name, offset);
        return in == null ? null : new LimitedInputStream(in, length);
    }

    /**
     * A file written by appends and published under {@code name} only by {@link Staged#commit()}:
     * until then the name holds nothing, and a crash leaves nothing under it.
     */
    Staged stage(String name) throws IOException;

    /** A file being written; see {@link #stage}. Not thread-safe. */
    interface Staged extends AutoCloseable {
        void write(byte[] bytes, int offset, int length) throws IOException;

        /**
         * Writes the buffer's remaining bytes (its position moves to its limit). A target that
         * writes to a file takes a direct buffer without the copy Java makes of a heap array.
         */
        default void write(java.nio.ByteBuffer bytes) throws IOException {
            if (bytes.hasArray()) {
                write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
                bytes.position(bytes.limit());
                return;
            }
            byte[] chunk = new byte[Math.min(bytes.remaining(), 64 << 10)];
            while (bytes.hasRemaining()) {
                int n = Math.min(chunk.length, bytes.remaining());
                bytes.get(chunk, 0, n);
                write(chunk, 0, n);
            }
        }

        /** Bytes written so far. */
        long size();

        /** Publishes the file under its name, durably: when this returns a crash keeps it. */
        void commit() throws IOException;

        /** Abandons the file unless it was committed. */
        @Override
        void close() throws IOException;
    }

    /**
     * Writes {@code name} from {@code in}, read to its end, replacing any file of that name
     * atomically. When reading {@code in} throws, nothing is written.
     *
     * @param size the number of bytes {@code in} yields
     */
    void put(String name, InputStream in, long size) throws IOException;

    /**
     * Writes a content blob whose SHA-256 the caller knows: {@code in} yields exactly those bytes
     * or throws from the read that reaches its end (a {@code HashCheckingInputStream}), so a
     * target that must send the checksum along (S3) takes it from here instead of hashing the
     * bytes a second time.
     *
     * @param sha256Hex lower-case hex SHA-256 of the bytes {@code in} yields
     */
    default void putChecked(String name, InputStream in, long size, String sha256Hex) throws IOException {
        put(name, in, size);
    }

    default void put(String name, byte[] bytes) throws IOException {
        put(name, new java.io.ByteArrayInputStream(bytes), bytes.length);
    }

    default void put(String name, Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            put(name, in, Files.size(file));
        }
    }

    /** Writes {@code name} only when it does not exist, atomically; false when it existed. */
    boolean putIfAbsent(String name, byte[] bytes) throws IOException;

    /** Every file whose name starts with {@code prefix}, in no particular order. */
    void list(String prefix, EntryVisitor visitor) throws IOException;

    /** Deletes the file; no error when absent. */
    void delete(String name) throws IOException;

    /** Makes every put so far durable (a no-op where a put is durable when it returns). */
    void sync() throws IOException;

    @Override
    void close() throws IOException;

    /** The whole file, or null when absent. */
    default byte[] read(String name) throws IOException {
        try (InputStream in = open(name, 0)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    /** One listed file. */
    record Entry(String name, long size, long modifiedMillis) {
    }

    @FunctionalInterface
    interface EntryVisitor {
        void visit(Entry entry) throws IOException;
    }

    /** Lists into a list (for small prefixes). */
    default java.util.List<Entry> listAll(String prefix) throws IOException {
        java.util.List<Entry> out = new java.util.ArrayList<>();
        list(prefix, out::add);
        return out;
    }

    /** An unchecked wrapper for lambdas. */
    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e);
    }
}
