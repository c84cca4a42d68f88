package dev.cairn.service;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The wall between the service (and the object store library it runs on) and the storage
 * engine, checked on compiled classes: their code uses only the engine's API package {@code dev.cairn.engine}; its tests may also use the
 * engine's file systems ({@code dev.cairn.engine.fs}, for fault injection) and dump tool
 * ({@code dev.cairn.engine.tool}). docs/design.md lists the exported packages. Inside the service,
 * its packages form no cycle and none depends on the root package, which wires them together.
 */
class ArchitectureTest {
    /** A class that breaks the wall, to show that the rules see a violation. */
    static final class Violator {
        static int keyBytes() {
            return dev.cairn.engine.sstable.InternalKeys.TRAILER_BYTES + dev.cairn.engine.sstable.InternalKeys.class.hashCode();
        }
    }

    private static ArchRule onlyUses(String... enginePackages) {
        return noClasses().that().resideOutsideOfPackage("dev.cairn.engine..")
                .should().dependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe(
                        "are in an engine package other than " + String.join(", ", enginePackages),
                        c -> c.getPackageName().startsWith("dev.cairn.engine")
                                && !java.util.List.of(enginePackages).contains(c.getPackageName())))
                .because("the engine exports only its API packages (docs/design.md)");
    }

    /** The main classes of these packages, without test classes or test jars. */
    private static JavaClasses mainClasses(String... packages) {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages(packages);
        assertTrue(main.size() > 20, "found only " + main.size() + " classes in " + String.join(", ", packages));
        return main;
    }

    @Test
    void serviceCodeUsesOnlyTheEngineApi() {
        onlyUses("dev.cairn.engine").check(mainClasses("dev.cairn.service", "dev.cairn.store"));
    }

    @Test
    void theObjectStoreApiKnowsNoBackendAndTheBackendsNotEachOther() {
        JavaClasses store = mainClasses("dev.cairn.store");
        noClasses().that().resideInAPackage("dev.cairn.store")
                .should().dependOnClassesThat().resideInAnyPackage("dev.cairn.store.embedded..", "dev.cairn.store.cassandra..")
                .because("the backends implement the ObjectStore API; the service's wiring chooses one")
                .check(store);
        slices().matching("dev.cairn.store.(*)..").should().notDependOnEachOther().check(store);
    }

    @Test
    void theServicesPackagesFormNoCycle() {
        slices().matching("dev.cairn.service.(*)..").should().beFreeOfCycles().check(mainClasses("dev.cairn.service"));
    }

    @Test
    void onlyTheWiringKnowsTheWiring() {
        noClasses().that().resideOutsideOfPackage("dev.cairn.service")
                .should().dependOnClassesThat().resideInAPackage("dev.cairn.service")
                .because("the root package wires the others together; the settings they read are in .config")
                .check(mainClasses("dev.cairn.service"));
    }

    @Test
    void serviceTestsUseOnlyExportedEnginePackages() {
        JavaClasses tests = new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("ArchitectureTest$Violator"))
                .importPackages("dev.cairn.service");
        onlyUses("dev.cairn.engine", "dev.cairn.engine.fs", "dev.cairn.engine.tool").check(tests);
    }

    @Test
    void theRuleSeesAViolation() {
        JavaClasses violator = new ClassFileImporter().importClasses(Violator.class);
        assertTrue(onlyUses("dev.cairn.engine", "dev.cairn.engine.fs", "dev.cairn.engine.tool")
                .evaluate(violator).hasViolation());
    }
}
