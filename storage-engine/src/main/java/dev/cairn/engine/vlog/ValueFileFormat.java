package dev.cairn.engine.vlog;

import dev.cairn.engine.CorruptionException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalLong;

/**
 * The constants of the value file format and its file header; the layout is in
 * {@code docs/format/value-file.md}. Stateless, thread-safe.
 */
final class ValueFileFormat {
    private ValueFileFormat() {
    }

    /** DO NOT CHANGE: embedded in on-disk data. */
    static final byte[] MAGIC = "CAIRNVLG".getBytes(StandardCharsets.US_ASCII);
    /** DO NOT CHANGE: embedded in on-disk data. Raise it for a new format; readers refuse newer ones. */
    public static final int FORMAT_VERSION = 1;
    /** magic (8) | format version u32 | reserved u32. DO NOT CHANGE: embedded in on-disk data. */
    public static final int HEADER_SIZE = 16;
    /** crc32c u32 | keyLength u32 | valueLength u32. DO NOT CHANGE: embedded in on-disk data. */
    public static final int RECORD_HEADER_SIZE = 12;
    /**
     * The longest key a record may hold. Beyond checking the writer's input, the limit lets a scan
     * tell a damaged length field from a torn tail. DO NOT CHANGE: readers rely on it.
     */
    public static final int MAX_KEY_LENGTH = 64 * 1024;
    /** The longest value a record may hold: what a Java array can. DO NOT CHANGE: readers rely on it. */
    public static final int MAX_VALUE_LENGTH = Integer.MAX_VALUE - 64;
    /** The largest number a value file can have: pointers store it as a u32. */
    public static final long MAX_FILE_NUMBER = 0xFFFF_FFFFL;

    private static final String SUFFIX = ".vlog";

    /** {@code NNNNNN.vlog}: the number zero-padded to at least six digits. */
    public static String fileName(long fileNumber) {
        checkFileNumber(fileNumber);
        return String.format("%06d%s", fileNumber, SUFFIX);
    }

    /** The number of a value file's name, or empty if the name is not one. */
    public static OptionalLong parseFileNumber(String name) {
        if (!name.endsWith(SUFFIX) || name.length() < 6 + SUFFIX.length()) {
            return OptionalLong.empty();
        }
        String digits = name.substring(0, name.length() - SUFFIX.length());
        if (digits.length() > 10 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        long number = Long.parseLong(digits);
        return number <= MAX_FILE_NUMBER ? OptionalLong.of(number) : OptionalLong.empty();
    }

    static void checkFileNumber(long fileNumber) {
        if (fileNumber < 0 || fileNumber > MAX_FILE_NUMBER) {
            throw new IllegalArgumentException("value file number out of range [0, " + MAX_FILE_NUMBER + "]: "
                    + fileNumber);
        }
    }

    static byte[] encodeHeader() {
        return ByteBuffer.allocate(HEADER_SIZE).put(MAGIC).putInt(FORMAT_VERSION).putInt(0).array();
    }

    /** Checks a file's first {@link #HEADER_SIZE} bytes; returns the format version. */
    static int checkHeader(byte[] header, Path file) throws IOException {
        if (!Arrays.equals(header, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new CorruptionException("not a value file (bad magic at offset 0): " + file);
        }
        int version = ByteBuffer.wrap(header, MAGIC.length, 4).getInt();
        if (version != FORMAT_VERSION) {
            throw new IOException("unsupported value file format version " + Integer.toUnsignedString(version)
                    + " in " + file);
        }
        return version;
    }
}
