package dev.cairn.service;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.cairn.architecture.ModuleWall.ENGINE_API;
import static dev.cairn.architecture.ModuleWall.ENGINE_DUMP_TOOL;
import static dev.cairn.architecture.ModuleWall.ENGINE_FILE_SYSTEMS;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import dev.cairn.architecture.ModuleWall;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The service's walls, checked on compiled classes: its code uses only the engine's API package
 * {@code dev.cairn.engine}, and the S3 layer not even that (the store translates the engine's
 * failures and limits into StoreException reasons and StoreLimits); its tests may also use the
 * engine's file systems (for fault injection) and dump tool. docs/design.md lists the exported
 * packages. Inside the service, its packages form no cycle and none depends on the root package,
 * which wires them together (the settings they read are in .config). The object store library has
 * its own wall (service/object-store).
 */
class ArchitectureTest {
    private static final ModuleWall WALL = ModuleWall.of("dev.cairn.service")
            .mainUses(ENGINE_API)
            .testsUse(ENGINE_API, ENGINE_FILE_SYSTEMS, ENGINE_DUMP_TOOL)
            .rootIsTheEntryPoint();

    private static final ArchRule S3_LAYER_KNOWS_ONLY_THE_STORE = noClasses()
            .that().resideInAPackage("dev.cairn.service.s3..")
            .should().dependOnClassesThat().resideInAPackage("dev.cairn.engine..")
            .because("the store translates the engine's failures and limits into StoreException reasons and StoreLimits");

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
    void theS3LayerKnowsOnlyTheStore() {
        S3_LAYER_KNOWS_ONLY_THE_STORE.check(WALL.mainClasses());
    }

    @Test
    void theWallSeesAViolation() {
        assertTrue(WALL.catchesInMain(Violator.class));
        assertTrue(WALL.catchesInTests(Violator.class));
    }

    @Test
    void theS3RuleSeesAViolation() {
        assertTrue(S3_LAYER_KNOWS_ONLY_THE_STORE.evaluate(new ClassFileImporter().importClasses(
                dev.cairn.service.s3.EngineApiUserForWallProbe.class)).hasViolation());
    }
}
