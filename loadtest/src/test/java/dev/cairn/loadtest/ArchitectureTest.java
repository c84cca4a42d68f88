package dev.cairn.loadtest;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The wall between the load generator and the storage engine, checked on compiled classes
 * (main and test): loadtest uses the engine's API package {@code dev.cairn.engine}, its file
 * systems {@code dev.cairn.engine.fs} (the simulated device and I/O counters of the benchmarks)
 * and its dump tool {@code dev.cairn.engine.tool}, nothing else. docs/design.md lists them.
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

    @Test
    void loadtestUsesOnlyExportedEnginePackages() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(location -> !location.contains("ArchitectureTest$Violator"))
                .importPackages("dev.cairn.loadtest");
        assertTrue(classes.size() > 20, "found only " + classes.size() + " loadtest classes");
        onlyUses("dev.cairn.engine", "dev.cairn.engine.fs", "dev.cairn.engine.tool").check(classes);
    }

    @Test
    void theRuleSeesAViolation() {
        JavaClasses violator = new ClassFileImporter().importClasses(Violator.class);
        assertTrue(onlyUses("dev.cairn.engine", "dev.cairn.engine.fs", "dev.cairn.engine.tool")
                .evaluate(violator).hasViolation());
    }
}
