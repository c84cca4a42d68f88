package dev.cairn.store;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static dev.cairn.architecture.ModuleWall.ENGINE_API;
import static dev.cairn.architecture.ModuleWall.ENGINE_FILE_SYSTEMS;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.cairn.architecture.ModuleWall;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The object store library's walls, checked on compiled classes: its code uses only the engine's
 * API package {@code dev.cairn.engine} and, for the scans it opens on checkpoints, the engine's two
 * kernel calls ({@link #KERNEL_CALLS}); its tests also the engine's file systems (fault
 * injection); no cycle between its packages; the ObjectStore API knows no backend, and the
 * backends (embedded, Cassandra) do not know each other.
 */
class ArchitectureTest {
    /** Page-cache advice and idle thread priority: a checkpoint scan's cache bypass and priority (embedded.PageCache, ScanPriority). */
    static final String[] KERNEL_CALLS = {"dev.cairn.engine.fs.PageCacheAdvice", "dev.cairn.engine.fs.ThreadPriority"};

    private static final ModuleWall WALL = ModuleWall.of("dev.cairn.store")
            .mainUses(ENGINE_API).mainAlsoUsesClasses(KERNEL_CALLS)
            .testsUse(ENGINE_API, ENGINE_FILE_SYSTEMS);

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
    void theObjectStoreApiKnowsNoBackendAndTheBackendsNotEachOther() {
        JavaClasses store = WALL.mainClasses();
        noClasses().that().resideInAPackage("dev.cairn.store")
                .should().dependOnClassesThat().resideInAnyPackage("dev.cairn.store.embedded..", "dev.cairn.store.cassandra..")
                .because("the backends implement the ObjectStore API; the service's wiring chooses one")
                .check(store);
        slices().matching("dev.cairn.store.(*)..").should().notDependOnEachOther().check(store);
    }

    @Test
    void theWallSeesAViolation() {
        assertTrue(WALL.catchesInMain(Violator.class));
        assertTrue(WALL.catchesInTests(Violator.class));
    }
}
