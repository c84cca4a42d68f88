package dev.cairn.engine.vlog;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * A human-readable listing of a value file: header, then one line per record, then how the file
 * ends (cleanly, at a torn tail, or at damage). Keys print as text when every byte is printable
 * ASCII, otherwise as hex. Stateless, thread-safe.
 */
public final class ValueFileDump {
    private ValueFileDump() {
    }

    /**
     * Prints the listing. Damage in the middle of the file is printed and then thrown, so that a
     * command-line tool can exit with failure after showing the records before it.
     */
    public static void dump(FileSystem fs, Path path, PrintStream out) throws IOException {
        String name = path.getFileName() == null ? "" : path.getFileName().toString();
        long fileNumber = ValueFileFormat.parseFileNumber(name).orElse(0);
        out.println("value file " + path);
        long records = 0;
        long valueBytes = 0;
        long reclaimed = 0;
        try (ValueFileScanner scanner = ValueFileScanner.open(fs, path, fileNumber, false)) {
            if (scanner.fileSize() >= ValueFileFormat.HEADER_SIZE) {
                out.println("header: magic " + new String(ValueFileFormat.MAGIC, StandardCharsets.US_ASCII)
                        + ", format version " + ValueFileFormat.FORMAT_VERSION + ", file size " + scanner.fileSize()
                        + " bytes");
            } else {
                out.println("header: torn, file size " + scanner.fileSize() + " bytes");
            }
            try {
                for (ValueFileScanner.Entry entry; (entry = scanner.next()) != null; ) {
                    ValuePointer pointer = entry.pointer();
                    if (entry.reclaimed()) {
                        out.printf("record at %d: key %s (%d bytes), value at %d, %d bytes, reclaimed (dead, %d bytes"
                                        + " given back)%n", entry.recordOffset(), printable(entry.key()),
                                entry.key().length, pointer.offset(), pointer.length(), ValueHoles.length(pointer));
                        reclaimed++;
                        continue;
                    }
                    out.printf("record at %d: key %s (%d bytes), value at %d, %d bytes, crc32c %08x ok%n",
                            entry.recordOffset(), printable(entry.key()), entry.key().length, pointer.offset(),
                            pointer.length(), pointer.crc32c());
                    records++;
                    valueBytes += pointer.length();
                }
            } catch (CorruptionException e) {
                out.println("CORRUPT after " + (records + reclaimed) + " records: " + e.getMessage());
                throw e;
            }
            out.println(records + " records, " + valueBytes + " value bytes, "
                    + (reclaimed > 0 ? reclaimed + " reclaimed, " : "") + "valid length " + scanner.validLength()
                    + " of " + scanner.fileSize() + " bytes");
            if (scanner.tornTail()) {
                out.println("torn tail: " + (scanner.fileSize() - scanner.validLength()) + " bytes after offset "
                        + scanner.validLength() + " ignored");
            }
        }
    }

    static String printable(byte[] key) {
        for (byte b : key) {
            if (b < 0x20 || b > 0x7e) {
                return "0x" + HexFormat.of().formatHex(key);
            }
        }
        return '"' + new String(key, StandardCharsets.US_ASCII) + '"';
    }
}
