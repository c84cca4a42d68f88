package dev.cairn.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.cairn.architecture.ModuleWall;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The engine's walls, checked on its compiled classes: the wall every module has (no package
 * cycles, each package its own slice), no web or DI stack, and an API package that depends on no
 * implementation package; a public type of a package no other module may use is public because
 * another engine package uses it. Which packages other modules may use is checked on their side
 * (their ArchitectureTest, through the same {@link ModuleWall}); docs/design.md lists them.
 */
class ArchitectureTest {
    private static final ModuleWall WALL = ModuleWall.of("dev.cairn.engine")
            .forbids("the engine is a plain library (docs/design.md)",
                    "org.springframework..", "jakarta..", "javax.servlet..", "org.eclipse.jetty..",
                    "org.apache.tomcat..", "io.netty..", "org.apache.http..", "org.apache.hc..",
                    "software.amazon.awssdk..", "java.net.http..", "com.sun.net.httpserver..");

    @TestFactory
    Stream<DynamicTest> walls() {
        return WALL.tests();
    }

    /** The provider ServiceLoader instantiates: public because ServiceLoader needs it, used by name only. */
    private static final String SERVICE_PROVIDER = "dev.cairn.engine.internal.DefaultEngineProvider";

    @Test
    void unexportedTypesArePublicOnlyForAnotherEnginePackage() {
        publicOnlyForAnotherPackage().check(WALL.mainClasses());
    }

    @Test
    void aPublicTypeNoOtherPackageUsesIsSeen() {
        JavaClasses vlogAlone = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.cairn.engine.vlog");
        assertTrue(publicOnlyForAnotherPackage().evaluate(vlogAlone).hasViolation(),
                "without dev.cairn.engine.internal, which uses them, the value log's public types have no reason to be public");
    }

    static ArchRule publicOnlyForAnotherPackage() {
        return classes().that().arePublic().and().areTopLevelClasses()
                .and().resideOutsideOfPackages(ModuleWall.ENGINE_API, ModuleWall.ENGINE_FILE_SYSTEMS, ModuleWall.ENGINE_DUMP_TOOL)
                .and().doNotHaveFullyQualifiedName(SERVICE_PROVIDER)
                .should(new ArchCondition<JavaClass>("be used from another engine package (else package-private)") {
                    @Override
                    public void check(JavaClass type, ConditionEvents events) {
                        boolean usedElsewhere = type.getDirectDependenciesToSelf().stream()
                                .map(Dependency::getOriginClass)
                                .anyMatch(origin -> !origin.getPackageName().equals(type.getPackageName()));
                        events.add(new SimpleConditionEvent(type, usedElsewhere,
                                type.getName() + (usedElsewhere ? " is" : " is not") + " used from another package"));
                    }
                });
    }

    @Test
    void apiPackageNamesNoImplementation() {
        classes().that().resideInAPackage("dev.cairn.engine")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.cairn.engine", "dev.cairn.engine.fs", "java..")
                .because("Engine.open finds the implementation through ServiceLoader, so the API stays apart")
                .check(WALL.mainClasses());
    }
}
