package dev.cairn.engine.row;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Row;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CatalogueDumpTest {

    @Test
    void printsSchemasAndVariableTables() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Path dir = Path.of("/catalogue");
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(SchemaCatalogueOptions.builder(dir).fileSystem(fs)
                .maxNewSchemasPerTable(1).build())) {
            catalogue.schemaIdFor("objects", List.of("etag", "size"));
            catalogue.schemaIdFor("objects", List.of("etag"));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CatalogueDump.dump(fs, dir.resolve(SchemaCatalogue.fileName(1)), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        assertTrue(text.contains("first id 1"), text);
        assertTrue(text.contains("schema 1  table objects  columns [etag, size]"), text);
        assertTrue(text.contains("variable table objects"), text);
    }

    @Test
    void printsTypedSchemasAndDictionaryValues() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Path dir = Path.of("/catalogue");
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(SchemaCatalogueOptions.builder(dir).fileSystem(fs).build())) {
            RowCodec.encode("objects", Row.builder().fixed("etag", new byte[16]).uint("content-length", 5)
                    .text("content-type", "image/png").build(), catalogue);
            catalogue.valueIdFor("blob", new byte[] {0, (byte) 0xff});
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CatalogueDump.dump(fs, dir.resolve(SchemaCatalogue.fileName(1)), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        assertTrue(text.contains("typed schema 1  table objects  columns [content-length:uint, content-type:bytes, etag:fixed16]"),
                text);
        assertTrue(text.contains("value 2  column content-type  'image/png'"), text);
        assertTrue(text.contains("value 3  column blob  0x00ff"), text);
    }
}
