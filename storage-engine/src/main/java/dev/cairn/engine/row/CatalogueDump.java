package dev.cairn.engine.row;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.util.Varint;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
                    size - CatalogueFormat.FRAME_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            byte type = bytes[pos + 8];
            try {
                if (type == CatalogueFormat.TYPE_SCHEMA) {
                    int id = Varint.getInt(in);
                    String table = string(in);
                    int count = Varint.getInt(in);
                    List<String> columns = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        columns.add(string(in));
                    }
                    out.printf("  @%d  schema %d  table %s  columns %s%n", pos, id, table, columns);
                } else if (type == CatalogueFormat.TYPE_VARIABLE_TABLE) {
                    out.printf("  @%d  variable table %s%n", pos, string(in));
                } else {
                    out.printf("  @%d  unknown record type %d%n", pos, type);
                }
            } catch (RuntimeException e) {
                out.printf("  @%d  malformed record: %s%n", pos, e);
            }
            pos += size;
        }
    }

    private static String string(ByteBuffer in) {
        int length = Varint.getInt(in);
        String s = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return s;
    }
}
