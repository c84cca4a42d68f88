package dev.cairn.backup;

import static dev.cairn.architecture.ModuleWall.ENGINE_API;
import static dev.cairn.architecture.ModuleWall.ENGINE_DUMP_TOOL;
import static dev.cairn.architecture.ModuleWall.ENGINE_FILE_SYSTEMS;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.architecture.ModuleWall;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The wall between the backup job and the storage engine, checked on compiled classes: the job's
 * code uses no engine package at all — it reads, writes and tunes a store through the object
 * store library (checkpoints opened for reading, their priority and page-cache advice included),
 * which alone goes to the engine; its tests may use the engine's API ({@code dev.cairn.engine}),
 * file systems ({@code dev.cairn.engine.fs}) and dump tool ({@code dev.cairn.engine.tool}). Inside
 * the job, the packages depend on each other without cycles, and none of them on the entry point
 * {@link Main}: the commands take what they need of the process from cli.JobEnvironment.
 */
class ArchitectureTest {
    private static final ModuleWall WALL = ModuleWall.of("dev.cairn.backup")
            .mainUses()
            .testsUse(ENGINE_API, ENGINE_FILE_SYSTEMS, ENGINE_DUMP_TOOL)
            .rootIsTheEntryPoint();

    /** A class that breaks the wall, to show that the rule sees a violation. */
    static final class Violator {
        static int keyBytes() {
            return dev.cairn.engine.sstable.InternalKeys.class.hashCode();
        }
    }

    /** A class that goes to the engine's API itself, which the job's own code may not. */
    static final class EngineApiUser {
        static int readOptions() {
            return dev.cairn.engine.ReadOptions.SCAN.hashCode();
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
        assertTrue(WALL.catchesInMain(EngineApiUser.class), "the job's code may not use the engine's API");
        assertFalse(WALL.catchesInTests(EngineApiUser.class), "its tests may");
    }
}
