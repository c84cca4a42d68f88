package dev.cairn.engine.sstable;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HexFormat;

/**
 * Prints an SSTable: footer, properties, filter, index and every entry, verifying every checksum
 * and the order of the keys on the way. Stateless.
 */
public final class SSTableDump {
    private SSTableDump() {
    }

    /** Command line: {@code SSTableDump <file>...}. Exits 1 if a file fails to verify. */
    public static void main(String[] args) {
        FileSystem fs = new LocalFileSystem();
        int status = 0;
        for (String name : args) {
            try {
                dump(fs, Path.of(name), System.out);
            } catch (IOException e) {
                System.out.flush();
                System.err.println("error: " + e.getMessage());
                status = 1;
            }
        }
        System.exit(status);
    }

    /**
     * Prints the table at {@code path}.
     *
     * @throws CorruptionException at the first damaged block or misordered key
     */
    public static void dump(FileSystem fs, Path path, PrintStream out) throws IOException {
        HexFormat hex = HexFormat.of();
        try (SSTableReader reader = SSTableReader.open(fs, path, 0, null)) {
            Footer footer = reader.footer();
            TableProperties p = reader.properties();
            out.println("sstable " + path);
            out.println("footer: format version " + SSTableFormat.VERSION + ", index " + footer.index()
                    + ", filter " + footer.filter() + ", properties " + footer.properties());
            out.println("properties:");
            out.println("  file size            " + p.fileSize());
            out.println("  entries              " + p.entryCount());
            out.println("  deletions            " + p.deletionCount());
            out.println("  value pointers       " + p.valuePointerCount());
            out.println("  smallest key         " + hex.formatHex(p.smallestKey()) + " ("
                    + InternalKeyFormat.describe(p.smallestKey()) + ")");
            out.println("  largest key          " + hex.formatHex(p.largestKey()) + " ("
                    + InternalKeyFormat.describe(p.largestKey()) + ")");
            out.println("  sequences            " + p.smallestSequence() + " .. " + p.largestSequence());
            out.println("  raw key bytes        " + p.rawKeyBytes());
            out.println("  raw value bytes      " + p.rawValueBytes());
            out.println("  data blocks          " + p.dataBlockCount() + " (" + p.dataBytes() + " bytes)");
            out.println("  filter keys          " + p.filterKeyCount());
            out.println("  created              " + Instant.ofEpochMilli(p.creationTimeMillis()));
            BloomFilter filter = reader.filter();
            out.println(filter == null ? "filter: none"
                    : "filter: " + filter.bitCount() + " bits, " + filter.probes() + " probes");
            out.println("index:");
            for (int i = 0; i < reader.dataBlockCount(); i++) {
                out.println("  block " + i + " " + reader.dataBlockHandle(i) + " separator "
                        + hex.formatHex(reader.separator(i)));
            }
            out.println("entries:");
            long count = 0;
            byte[] previous = null;
            for (int i = 0; i < reader.dataBlockCount(); i++) {
                out.println("  block " + i + " " + reader.dataBlockHandle(i));
                Block.Cursor cursor = reader.dataBlock(i, false).cursor(reader.fileName());
                for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
                    byte[] key = cursor.key();
                    long offset = reader.dataBlockHandle(i).offset();
                    if (previous != null && InternalKeys.COMPARATOR.compare(previous, key) >= 0) {
                        throw Block.corrupt(reader.fileName(), offset, "key out of order");
                    }
                    if (InternalKeys.COMPARATOR.compare(key, reader.separator(i)) > 0) {
                        throw Block.corrupt(reader.fileName(), offset, "key after the block's separator");
                    }
                    previous = key;
                    count++;
                    out.println("    " + hex.formatHex(key) + " " + InternalKeyFormat.describe(key)
                            + " value " + cursor.value().length + " bytes");
                }
            }
            if (count != p.entryCount()) {
                throw new CorruptionException("corrupt SSTable " + path + ": " + count
                        + " entries found, properties say " + p.entryCount());
            }
            out.println("ok: " + count + " entries, all checksums verified");
        }
    }
}
