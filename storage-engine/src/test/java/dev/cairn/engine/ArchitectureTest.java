package dev.cairn.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The engine's layering, checked on its compiled classes: no package cycles (every package is
 * its own slice), no web or DI stack, and an API package that depends on no implementation
 * package. Which packages other modules may use is checked on their side (the service's and
 * loadtest's ArchitectureTest); docs/design.md lists them.
 */
class ArchitectureTest {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.engine");

    private static final SliceAssignment EACH_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            return name.startsWith("dev.cairn.engine") ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package of dev.cairn.engine";
        }
    };

    @Test
    void packagesFormNoCycle() {
        slices().assignedFrom(EACH_PACKAGE).should().beFreeOfCycles().check(ENGINE);
    }

    @Test
    void noWebOrDependencyInjectionStack() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "org.springframework..", "jakarta..", "javax.servlet..", "org.eclipse.jetty..",
                        "org.apache.tomcat..", "io.netty..", "org.apache.http..", "org.apache.hc..",
                        "software.amazon.awssdk..", "java.net.http..", "com.sun.net.httpserver..")
                .because("the engine is a plain library (docs/design.md)")
                .check(ENGINE);
    }

    @Test
    void apiPackageNamesNoImplementation() {
        classes().that().resideInAPackage("dev.cairn.engine")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.cairn.engine", "dev.cairn.engine.fs", "java..")
                .because("Engine.open finds the implementation through ServiceLoader, so the API stays apart")
                .check(ENGINE);
    }
}
