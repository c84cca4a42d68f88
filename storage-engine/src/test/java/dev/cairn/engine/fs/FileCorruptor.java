package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Damages stored files on purpose, on any {@link FileSystem}, so that tests can check that
 * corruption is detected. Each method reads the whole file, changes it, writes the result to a
 * temporary sibling and renames it over the original, syncing file and directory so that the
 * damage also survives a simulated crash. The file gets a new inode: hard links to the old one
 * keep the old bytes.
 *
 * <p>Thread-safety: not safe against concurrent writers of the same file; tests call it while
 * nothing else writes the file.
 */
public final class FileCorruptor {
    private static final String TEMP_SUFFIX = ".corrupting";

    private FileCorruptor() {
    }

    /** Inverts bit {@code bit} (0 = least significant) of the byte at {@code byteOffset}. */
    public static void flipBit(FileSystem fs, Path path, long byteOffset, int bit) throws IOException {
        if (bit < 0 || bit > 7) {
            throw new IllegalArgumentException("bit must be in [0, 7]: " + bit);
        }
        byte[] bytes = readAll(fs, path);
        checkInside(path, bytes, byteOffset, 1);
        bytes[(int) byteOffset] ^= (byte) (1 << bit);
        replace(fs, path, bytes, bytes.length);
    }

    /** Overwrites bytes in place, starting at {@code byteOffset}; the file does not grow. */
    public static void overwrite(FileSystem fs, Path path, long byteOffset, byte[] replacement) throws IOException {
        byte[] bytes = readAll(fs, path);
        checkInside(path, bytes, byteOffset, replacement.length);
        System.arraycopy(replacement, 0, bytes, (int) byteOffset, replacement.length);
        replace(fs, path, bytes, bytes.length);
    }

    /** Cuts the file to its first {@code newLength} bytes, as a torn write leaves it. */
    public static void truncate(FileSystem fs, Path path, long newLength) throws IOException {
        byte[] bytes = readAll(fs, path);
        if (newLength < 0 || newLength > bytes.length) {
            throw new IllegalArgumentException("cannot truncate " + path + " of " + bytes.length
                    + " bytes to " + newLength);
        }
        replace(fs, path, bytes, (int) newLength);
    }

    /** The whole content of a file. */
    public static byte[] readAll(FileSystem fs, Path path) throws IOException {
        try (ReadableFile file = fs.openRead(path)) {
            long size = file.size();
            if (size > Integer.MAX_VALUE - 8) {
                throw new IOException("file too large to corrupt in memory: " + path);
            }
            return file.readFully(0, (int) size);
        }
    }

    private static void checkInside(Path path, byte[] bytes, long offset, int length) {
        if (offset < 0 || offset + length > bytes.length) {
            throw new IllegalArgumentException("offset " + offset + " length " + length + " outside " + path
                    + " of " + bytes.length + " bytes");
        }
    }

    private static void replace(FileSystem fs, Path path, byte[] bytes, int length) throws IOException {
        Path temp = path.resolveSibling(path.getFileName() + TEMP_SUFFIX);
        try (WritableFile out = fs.create(temp, WriteLifetime.NOT_SET)) {
            out.append(ByteBuffer.wrap(bytes, 0, length));
            out.sync();
        }
        fs.rename(temp, path);
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            fs.syncDirectory(parent);
        }
    }
}
