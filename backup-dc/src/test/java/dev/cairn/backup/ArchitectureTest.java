package dev.cairn.backup;

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
 * The backup job's walls, checked on compiled classes: the job's code uses only the engine's API
 * package {@code dev.cairn.engine}, and of {@code dev.cairn.engine.fs} only the kernel calls of
 * the process's one C binding ({@link #KERNEL_CALLS}); its tests may also use the engine's file
 * systems and dump tool. Stored rows are decoded by the object store library, never by the job
 * itself. Inside the job, the packages depend on each other without cycles, and none of them on
 * the entry point {@link Main}: the commands take what they need of the process from
 * cli.JobEnvironment.
 */
class ArchitectureTest {
    /** Page-cache advice and idle thread priority: the job's own calls into the C library go through these. */
    static final String[] KERNEL_CALLS = {"dev.cairn.engine.fs.PageCacheAdvice", "dev.cairn.engine.fs.ThreadPriority"};

    private static final ModuleWall WALL = ModuleWall.of("dev.cairn.backup")
            .mainUses(ENGINE_API).mainAlsoUsesClasses(KERNEL_CALLS)
            .testsUse(ENGINE_API, ENGINE_FILE_SYSTEMS, ENGINE_DUMP_TOOL)
            .rootIsTheEntryPoint();

    /** A class that breaks the wall, to show that the rule sees a violation. */
    static final class Violator {
        static int keyBytes() {
            return dev.cairn.engine.sstable.InternalKeys.class.hashCode();
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
