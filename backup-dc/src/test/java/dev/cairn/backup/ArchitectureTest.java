package dev.cairn.backup;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The wall between the backup job and the storage engine, checked on compiled classes: the job's
 * code uses only the engine's API package {@code dev.cairn.engine}, and of {@code dev.cairn.engine.fs}
 * only the kernel calls of the process's one C binding ({@link #KERNEL_CALLS}); its tests may also use the
 * engine's file systems ({@code dev.cairn.engine.fs}) and dump tool ({@code dev.cairn.engine.tool}).
 * Stored rows are decoded by the object store library, never by the job itself. Inside the job,
 * the packages depend on each other without cycles, and none of them on the entry point
 * {@link Main}.
 */
class ArchitectureTest {
    /** A class that breaks the wall, to show that the rule sees a violation. */
    static final class Violator {
        static int keyBytes() {
            return dev.cairn.engine.sstable.InternalKeys.class.hashCode();
        }
    }

    /** Page-cache advice and idle thread priority: the job's own calls into the C library go through these. */
    static final List<String> KERNEL_CALLS = List.of("dev.cairn.engine.fs.PageCacheAdvice", "dev.cairn.engine.fs.ThreadPriority");

    private static ArchRule onlyUses(String... enginePackages) {
        return onlyUses(List.of(), enginePackages);
    }

    private static ArchRule onlyUses(List<String> classes, String... enginePackages) {
        List<String> allowed = List.of(enginePackages);
        return noClasses().that().resideOutsideOfPackage("dev.cairn.engine..")
                .should().dependOnClassesThat(DescribedPredicate.describe(
                        "are in an engine package other than " + String.join(", ", enginePackages)
                                + (classes.isEmpty() ? "" : " and not " + String.join(", ", classes)),
                        c -> c.getPackageName().startsWith("dev.cairn.engine") && !allowed.contains(c.getPackageName())
                                && !classes.contains(c.getName())))
                .because("the engine exports only its API packages (docs/design.md)");
    }

    @Test
    void backupCodeUsesOnlyTheEngineApi() {
        JavaClasses main = jobClasses();
        assertTrue(main.size() > 40, "found only " + main.size() + " backup classes");
        onlyUses(KERNEL_CALLS, "dev.cairn.engine").check(main);
    }

    @Test
    void backupTestsUseOnlyExportedEnginePackages() {
        JavaClasses tests = new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("ArchitectureTest$Violator"))
                .importPackages("dev.cairn.backup");
        assertTrue(tests.size() > 10, "found only " + tests.size() + " backup test classes");
        onlyUses("dev.cairn.engine", "dev.cairn.engine.fs", "dev.cairn.engine.tool").check(tests);
    }

    private static JavaClasses jobClasses() {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("dev.cairn.backup");
    }

    @Test
    void theJobsPackagesFormNoCycle() {
        slices().matching("dev.cairn.backup.(*)..").should().beFreeOfCycles().check(jobClasses());
    }

    @Test
    void onlyTheEntryPointKnowsTheEntryPoint() {
        noClasses().that().resideOutsideOfPackage("dev.cairn.backup")
                .should().dependOnClassesThat().resideInAPackage("dev.cairn.backup")
                .because("the commands take what they need of the process from cli.JobEnvironment")
                .check(jobClasses());
    }

    @Test
    void theRuleSeesAViolation() {
        assertTrue(onlyUses(KERNEL_CALLS, "dev.cairn.engine").evaluate(new ClassFileImporter().importClasses(Violator.class))
                .hasViolation());
        JavaClasses violator = new ClassFileImporter().importClasses(Violator.class);
        assertTrue(onlyUses("dev.cairn.engine", "dev.cairn.engine.fs", "dev.cairn.engine.tool")
                .evaluate(violator).hasViolation());
    }
}
