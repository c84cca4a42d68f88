package dev.cairn.loadtest;

import static dev.cairn.architecture.ModuleWall.ENGINE_API;
import static dev.cairn.architecture.ModuleWall.ENGINE_DUMP_TOOL;
import static dev.cairn.architecture.ModuleWall.ENGINE_FILE_SYSTEMS;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.architecture.ModuleWall;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The load generator's walls, checked on compiled classes: no cycle between its packages, and
 * of the engine, main and test code use the API package, its file systems (the simulated device
 * and I/O counters of the benchmarks) and its dump tool, nothing else. docs/design.md lists them.
 */
class ArchitectureTest {
    private static final ModuleWall WALL = ModuleWall.of("dev.cairn.loadtest")
            .mainUses(ENGINE_API, ENGINE_FILE_SYSTEMS, ENGINE_DUMP_TOOL)
            .rootIsTheEntryPoint();

    /** A class that breaks the wall, to show that the rules see a violation. */
    static final class Violator {
        static int keyBytes() {
            return dev.cairn.engine.sstable.InternalKeys.TRAILER_BYTES + dev.cairn.engine.sstable.InternalKeys.class.hashCode();
        }
    }

    @TestFactory
    Stream<DynamicTest> walls() {
        return WALL.tests();
    }

    @Test
    void theWallSeesAViolation() {
        assertTrue(WALL.catchesInMain(Violator.class));
        assertTrue(WALL.catchesInTests(Violator.class));
    }
}
