package dev.cairn.engine.row;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Prints a schema catalogue segment (docs/format/schema-catalogue.md) for people: the header,
 * one line per intact record, and where reading stopped. Thread-safe: stateless.
 */
public final class CatalogueDump {

    private CatalogueDump() {
    }

    /** Dumps the segment file at {@code path}; its number is taken from its name. */
    public static void dump(FileSystem fs, Path path, PrintStream out) throws IOException {
        int number = SchemaCatalogue.parseNumber(path.getFileName().toString());
        byte[] bytes;
        try (ReadableFile file = fs.openRead(path)) {
            bytes = file.readFully(0, (int) file.size());
        }
        out.printf("catalogue segment %s: %d bytes%n", path, bytes.length);
        int firstId = CatalogueFormat.firstId(bytes, number);
        if (firstId < 1) {
            out.println("  header: invalid");
            return;
        }
        out.printf("  header: segment %d, first id %d%n", number, firstId);
        int pos = CatalogueFormat.HEADER_BYTES;
        while (pos < bytes.length) {
            int size = CatalogueFormat.intactFrameSize(bytes, pos, bytes.length);
            if (size < 0) {
                out.printf("  reading stopped at offset %d: %d bytes damaged%n", pos, bytes.length - pos);
                return;
            }
            ByteBuffer in = ByteBuffer.wrap(bytes, pos + CatalogueFormat.FRAME_HEADER_BYTES,
                    size - CatalogueFormat.FRAME_HEADER_BYTES);
            try {
                out.printf("  @%d  %s%n", pos, describe(CatalogueFormat.parse(bytes[pos + 8], in)));
            } catch (RuntimeException e) {
                out.printf("  @%d  malformed record of type %d: %s%n", pos, bytes[pos + 8], e);
            }
            pos += size;
        }
    }

    private static String describe(CatalogueFormat.Record record) {
        if (record instanceof CatalogueFormat.Schema s) {
            return "schema " + s.id() + "  table " + s.table() + "  columns " + s.columns();
        }
        if (record instanceof CatalogueFormat.TypedSchema s) {
            return "typed schema " + s.id() + "  table " + s.table() + "  columns " + s.columns();
        }
        if (record instanceof CatalogueFormat.Value v) {
            return "value " + v.id() + "  column " + v.column() + "  " + printable(v.value());
        }
        return "variable table " + ((CatalogueFormat.VariableTable) record).table();
    }

    /** The value as text when it is printable ASCII, else as hex. */
    private static String printable(byte[] value) {
        StringBuilder text = new StringBuilder("'");
        for (byte b : value) {
            if (b < 0x20 || b > 0x7e) {
                return "0x" + java.util.HexFormat.of().formatHex(value);
            }
            text.append((char) b);
        }
        return text.append('\'').toString();
    }
}
