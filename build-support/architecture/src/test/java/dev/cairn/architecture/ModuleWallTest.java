package dev.cairn.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;

/** The probes of the shared wall: each rule sees the violation it is there for, and passes a module without one. */
class ModuleWallTest {
    private static final String CYCLE = "dev.cairn.architecture.fixture.cycle";
    private static final String LAYERED = "dev.cairn.architecture.fixture.layered";

    private static JavaClasses fixture(String rootPackage) {
        return new ClassFileImporter().importPackages(rootPackage);
    }

    @Test
    void aCycleThroughTheRootPackageIsSeen() {
        assertTrue(ModuleWall.of(CYCLE).packagesFormNoCycle().evaluate(fixture(CYCLE)).hasViolation());
        assertFalse(ModuleWall.of(LAYERED).packagesFormNoCycle().evaluate(fixture(LAYERED)).hasViolation());
    }

    @Test
    void aPackageThatKnowsTheRootIsSeen() {
        assertTrue(ModuleWall.of(CYCLE).onlyTheRootKnowsTheRoot().evaluate(fixture(CYCLE)).hasViolation());
        assertFalse(ModuleWall.of(LAYERED).onlyTheRootKnowsTheRoot().evaluate(fixture(LAYERED)).hasViolation());
    }

    @Test
    void aForbiddenPackageIsSeen() {
        List<DynamicTest> tests = ModuleWall.of(LAYERED).forbids("a probe", "java.util.concurrent..")
                .tests(() -> fixture(LAYERED), () -> fixture(LAYERED)).toList();
        assertEquals(2, tests.size(), "the cycle check and the forbidden packages");
        assertThrows(AssertionError.class, () -> tests.get(1).getExecutable().execute());
    }

    @Test
    void theTestsOfAWallRunEveryRuleItWasGiven() throws Throwable {
        List<DynamicTest> tests = ModuleWall.of(CYCLE).rootIsTheEntryPoint()
                .tests(() -> fixture(CYCLE), () -> fixture(CYCLE)).toList();
        assertEquals(2, tests.size());
        for (DynamicTest test : tests) {
            assertThrows(AssertionError.class, () -> test.getExecutable().execute(), test.getDisplayName());
        }
        for (DynamicTest test : ModuleWall.of(LAYERED).rootIsTheEntryPoint()
                .tests(() -> fixture(LAYERED), () -> fixture(LAYERED)).toList()) {
            test.getExecutable().execute();
        }
    }

    @Test
    void aModuleWithoutClassesIsAnError() {
        assertThrows(IllegalStateException.class, () -> ModuleWall.of("dev.cairn.architecture.nothing").mainClasses());
    }
}
