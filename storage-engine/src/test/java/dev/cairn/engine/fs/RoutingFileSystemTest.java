package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RoutingFileSystemTest {

    private final MemFileSystem fast = new MemFileSystem();
    private final MemFileSystem capacity = new MemFileSystem();
    private final MemFileSystem deeper = new MemFileSystem();
    private RoutingFileSystem fs;

    @BeforeEach
    void setUp() throws IOException {
        fs = RoutingFileSystem.builder(fast)
                .route(Path.of("/data/hdd"), capacity)
                .route(Path.of("/data/hdd/cold"), deeper)
                .build();
        for (Path dir : List.of(Path.of("/data/ssd"), Path.of("/data/hdd"), Path.of("/data/hdd2"),
                Path.of("/data/hdd/cold"))) {
            fs.createDirectories(dir);
        }
    }

    private void write(Path path, String content) throws IOException {
        try (WritableFile file = fs.create(path, WriteLifetime.LONG)) {
            file.append(ByteBuffer.wrap(content.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            file.sync();
        }
    }

    @Test
    void eachPathGoesToTheLongestMatchingPrefix() throws IOException {
        write(Path.of("/data/ssd/a"), "fast");
        write(Path.of("/data/hdd/b"), "capacity");
        write(Path.of("/data/hdd/cold/c"), "deeper");

        assertTrue(fast.exists(Path.of("/data/ssd/a")));
        assertFalse(capacity.exists(Path.of("/data/ssd/a")));
        assertTrue(capacity.exists(Path.of("/data/hdd/b")));
        assertFalse(fast.exists(Path.of("/data/hdd/b")));
        assertTrue(deeper.exists(Path.of("/data/hdd/cold/c")));
        assertFalse(capacity.exists(Path.of("/data/hdd/cold/c")));
        assertEquals(8, fs.size(Path.of("/data/hdd/b")));
        assertEquals(List.of("b"), capacity.list(Path.of("/data/hdd")).stream().filter(n -> !n.equals("cold")).toList());
    }

    @Test
    void prefixesMatchWholeComponentsAfterNormalizing() {
        assertSame(fast, fs.routeOf(Path.of("/data/hdd2/x")));
        assertSame(capacity, fs.routeOf(Path.of("/data/hdd")));
        assertSame(capacity, fs.routeOf(Path.of("/data/ssd/../hdd/x")));
        assertSame(deeper, fs.routeOf(Path.of("/data/hdd/./cold/x")));
        assertSame(fast, fs.routeOf(Path.of("/data")));
    }

    @Test
    void renameAndLinkWithinOneRouteWork() throws IOException {
        write(Path.of("/data/hdd/a"), "x");
        fs.rename(Path.of("/data/hdd/a"), Path.of("/data/hdd/b"));
        fs.link(Path.of("/data/hdd/b"), Path.of("/data/hdd/c"));
        assertTrue(capacity.exists(Path.of("/data/hdd/b")));
        assertTrue(capacity.exists(Path.of("/data/hdd/c")));
        assertFalse(capacity.exists(Path.of("/data/hdd/a")));
    }

    @Test
    void renameAndLinkAcrossRoutesFailAndChangeNothing() throws IOException {
        write(Path.of("/data/ssd/a"), "x");
        IOException rename = assertThrows(IOException.class,
                () -> fs.rename(Path.of("/data/ssd/a"), Path.of("/data/hdd/a")));
        assertTrue(rename.getMessage().contains("different file systems"), rename.getMessage());
        assertTrue(rename.getMessage().contains("the default route"), rename.getMessage());
        assertTrue(rename.getMessage().contains("the route of /data/hdd"), rename.getMessage());
        IOException link = assertThrows(IOException.class,
                () -> fs.link(Path.of("/data/ssd/a"), Path.of("/data/hdd/cold/a")));
        assertTrue(link.getMessage().contains("the route of /data/hdd/cold"), link.getMessage());
        assertThrows(IOException.class, () -> fs.rename(Path.of("/data/hdd/x"), Path.of("/data/hdd/cold/x")));

        assertTrue(fast.exists(Path.of("/data/ssd/a")));
        assertFalse(capacity.exists(Path.of("/data/hdd/a")));
        assertFalse(deeper.exists(Path.of("/data/hdd/cold/a")));
    }

    @Test
    void readsDeletesAndLocksGoToTheOwningRoute() throws Exception {
        write(Path.of("/data/hdd/a"), "abc");
        try (ReadableFile file = fs.openRead(Path.of("/data/hdd/a"))) {
            assertEquals("abc", new String(file.readFully(0, 3), java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThrows(IOException.class, () -> fast.openRead(Path.of("/data/hdd/a")));
        try (AutoCloseable lock = fs.lock(Path.of("/data/hdd/LOCK"))) {
            assertTrue(capacity.exists(Path.of("/data/hdd/LOCK")));
        }
        fs.delete(Path.of("/data/hdd/a"));
        assertFalse(capacity.exists(Path.of("/data/hdd/a")));
    }

    @Test
    void aSecondRouteForTheSamePrefixIsRefused() {
        RoutingFileSystem.Builder builder = RoutingFileSystem.builder(fast).route(Path.of("/a/b"), capacity);
        assertThrows(IllegalArgumentException.class, () -> builder.route(Path.of("/a/./b"), deeper));
    }
}
