package dev.cairn.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import dev.cairn.architecture.ModuleWall;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The engine's walls, checked on its compiled classes: the wall every module has (no package
 * cycles, each package its own slice), no web or DI stack, and an API package that depends on no
 * implementation package. Which packages other modules may use is checked on their side (their
 * ArchitectureTest, through the same {@link ModuleWall}); docs/design.md lists them.
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

    @Test
    void apiPackageNamesNoImplementation() {
        classes().that().resideInAPackage("dev.cairn.engine")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.cairn.engine", "dev.cairn.engine.fs", "java..")
                .because("Engine.open finds the implementation through ServiceLoader, so the API stays apart")
                .check(WALL.mainClasses());
    }
}
