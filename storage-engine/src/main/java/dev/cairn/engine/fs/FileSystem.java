package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Every byte the engine reads or writes goes through this interface, so that tests can swap in
 * an in-memory file system that simulates crashes, one that injects faults, and benchmarks one
 * that simulates a slow device.
 *
 * <p>Contract, shared by every implementation:
 * <ul>
 *   <li>Data appended to a {@link WritableFile} is durable only after {@link WritableFile#sync()}
 *       returns. A file's existence under its name is durable only after {@link #syncDirectory}
 *       of its parent directory returns (create, rename, delete, link alike).
 *   <li>{@link #rename} replaces the target atomically.
 *   <li>Implementations are thread-safe; a {@link ReadableFile} may be read by many threads at
 *       once (positional reads), a {@link WritableFile} is appended to by one thread at a time.
 * </ul>
 */
public interface FileSystem {

    /** Creates (or truncates) a file for appending. The hint says how long its bytes will live. */
    WritableFile create(Path path, WriteLifetime lifetime) throws IOException;

    /** Opens an existing file for positional reads. */
    ReadableFile openRead(Path path) throws IOException;

    /**
     * Opens an existing file for one reader's long sequential reads that go around the page
     * cache, so that a full traversal (a backup) neither evicts what serving keeps hot nor pays
     * the kernel's copy of every byte; where the file system cannot (tmpfs, an in-memory one), an
     * ordinary {@link #openRead}. Reads are best made in mebibytes: there is no read-ahead.
     */
    default ReadableFile openReadAroundPageCache(Path path) throws IOException {
        return openRead(path);
    }

    /** Atomically renames {@code source} to {@code target}, replacing any existing target. */
    void rename(Path source, Path target) throws IOException;

    /** Deletes a file; deleting a file that does not exist is not an error. */
    void delete(Path path) throws IOException;

    /** Creates {@code link} as a hard link to {@code existing} (used by checkpoints). */
    void link(Path existing, Path link) throws IOException;

    boolean exists(Path path) throws IOException;

    long size(Path path) throws IOException;

    /** The names (not paths) of the entries of a directory, in no particular order. */
    List<String> list(Path directory) throws IOException;

    /** Creates a directory and its missing parents. */
    void createDirectories(Path directory) throws IOException;

    /** Makes the directory's entries (creations, renames, deletions) durable. */
    void syncDirectory(Path directory) throws IOException;

    /**
     * Bytes new writes may still take on the file system holding {@code directory} (what
     * {@code statvfs} calls available to unprivileged users); {@link Long#MAX_VALUE} where the
     * implementation cannot tell. The engine refuses writes before this runs out (see
     * {@code EngineOptions#reservedDiskBytes}).
     */
    default long usableSpace(Path directory) throws IOException {
        return Long.MAX_VALUE;
    }

    /**
     * Gives back the space of {@code [offset, offset + length)} of a file while keeping its size:
     * the range reads as zeros from then on ({@code fallocate(FALLOC_FL_PUNCH_HOLE)}). Only a file
     * with no other name is punched, so that a hard link (a checkpoint) keeps every byte it had.
     * Returns the bytes given back as far as known, 0 where the file system cannot punch or the
     * file has another name (nothing changed then). Whether a punch survives a crash is not
     * promised: after one the range holds either zeros or its old bytes, in blocks.
     */
    default long punchHole(Path path, long offset, long length) throws IOException {
        return 0;
    }

    /**
     * Takes an exclusive lock on a file (created if absent) so that a second process cannot open
     * the same engine directory. Closing the returned handle releases it.
     */
    AutoCloseable lock(Path path) throws IOException;
}
