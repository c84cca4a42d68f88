package dev.cairn.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * One module's walls, the same rule for every module: its packages form no cycle (each package
 * its own slice, the root package included); its code uses only the engine packages it is
 * allowed (the engine exports {@link #ENGINE_API}, and to tests and tools {@link #ENGINE_FILE_SYSTEMS}
 * and {@link #ENGINE_DUMP_TOOL}); optionally no other package knows its root package, which
 * wires the others together, and packages it must never use. Each module's ArchitectureTest
 * builds its wall and runs {@link #tests()}:
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> walls() {
 *     return ModuleWall.of("dev.cairn.backup").mainUses(ModuleWall.ENGINE_API).rootIsTheEntryPoint().tests();
 * }
 * }</pre>
 *
 * A test class named {@code Violator} (nested or not) is left out of the module's classes, so a
 * module can keep a probe that shows its wall sees a violation ({@link #catchesInTests}).
 */
public final class ModuleWall {
    public static final String ENGINE_API = "dev.cairn.engine";
    public static final String ENGINE_FILE_SYSTEMS = "dev.cairn.engine.fs";
    public static final String ENGINE_DUMP_TOOL = "dev.cairn.engine.tool";
    private static final String ENGINE = "dev.cairn.engine";
    private static final String VIOLATOR = "Violator";

    private final String rootPackage;
    private List<String> mainEnginePackages;
    private List<String> mainEngineClasses = List.of();
    private List<String> testEnginePackages;
    private boolean rootIsTheEntryPoint;
    private final List<ArchRule> forbidden = new ArrayList<>();

    private ModuleWall(String rootPackage) {
        this.rootPackage = rootPackage;
    }

    /** The wall of the module whose packages are {@code rootPackage} and its subpackages. */
    public static ModuleWall of(String rootPackage) {
        return new ModuleWall(rootPackage);
    }

    /** The engine packages the module's main code may use; without this call, no engine rule applies (the engine itself). */
    public ModuleWall mainUses(String... enginePackages) {
        mainEnginePackages = List.of(enginePackages);
        if (testEnginePackages == null) {
            testEnginePackages = mainEnginePackages;
        }
        return this;
    }

    /** Single engine classes, outside the allowed packages, the main code may also use. */
    public ModuleWall mainAlsoUsesClasses(String... classNames) {
        mainEngineClasses = List.of(classNames);
        return this;
    }

    /** The engine packages the module's tests may use (default: those of its main code). */
    public ModuleWall testsUse(String... enginePackages) {
        testEnginePackages = List.of(enginePackages);
        return this;
    }

    /** No package of the module but the root depends on the root package, which wires the others. */
    public ModuleWall rootIsTheEntryPoint() {
        rootIsTheEntryPoint = true;
        return this;
    }

    /** The module's main code depends on none of these packages (ArchUnit patterns such as {@code "org.springframework.."}). */
    public ModuleWall forbids(String because, String... packagePatterns) {
        forbidden.add(noClasses().should().dependOnClassesThat().resideInAnyPackage(packagePatterns).because(because));
        return this;
    }

    /** The module's main classes: no test classes, no jars (so no test jar of another module either). */
    public JavaClasses mainClasses() {
        return nonEmpty(new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(rootPackage), "main");
    }

    /** The module's test classes, without its probes' {@code Violator} classes. */
    public JavaClasses testClasses() {
        return nonEmpty(new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("$" + VIOLATOR + ".class")
                        && !location.contains("/" + VIOLATOR + ".class"))
                .importPackages(rootPackage), "test");
    }

    private JavaClasses nonEmpty(JavaClasses classes, String kind) {
        if (classes.isEmpty()) {
            throw new IllegalStateException("no " + kind + " classes found in " + rootPackage + " on the class path");
        }
        return classes;
    }

    /** Every rule of this wall, each one test named by what it checks. */
    public Stream<DynamicTest> tests() {
        return tests(memoize(this::mainClasses), memoize(this::testClasses));
    }

    Stream<DynamicTest> tests(Supplier<JavaClasses> main, Supplier<JavaClasses> testClasses) {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(test(packagesFormNoCycle(), main));
        if (rootIsTheEntryPoint) {
            tests.add(test(onlyTheRootKnowsTheRoot(), main));
        }
        if (mainEnginePackages != null) {
            tests.add(test(usesOnly(mainEnginePackages, mainEngineClasses), main));
            tests.add(test(usesOnly(testEnginePackages, List.of()), testClasses));
        }
        for (ArchRule rule : forbidden) {
            tests.add(test(rule, main));
        }
        return tests.stream();
    }

    /** True when the rule for the module's main code sees a violation in these classes: the probe of the wall. */
    public boolean catchesInMain(Class<?>... classes) {
        return usesOnly(mainEnginePackages, mainEngineClasses).evaluate(imported(classes)).hasViolation();
    }

    /** True when the rule for the module's tests sees a violation in these classes: the probe of the wall. */
    public boolean catchesInTests(Class<?>... classes) {
        return usesOnly(testEnginePackages, List.of()).evaluate(imported(classes)).hasViolation();
    }

    private static JavaClasses imported(Class<?>... classes) {
        return new ClassFileImporter().importClasses(Arrays.asList(classes));
    }

    private static DynamicTest test(ArchRule rule, Supplier<JavaClasses> classes) {
        return DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(classes.get()));
    }

    private static <T> Supplier<T> memoize(Supplier<T> supplier) {
        return new Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = supplier.get();
                }
                return value;
            }
        };
    }

    /** Each package of the module its own slice, the root package too, and no cycle among them. */
    ArchRule packagesFormNoCycle() {
        return slices().assignedFrom(eachPackageUnder(rootPackage)).should().beFreeOfCycles();
    }

    ArchRule onlyTheRootKnowsTheRoot() {
        return noClasses().that().resideOutsideOfPackage(rootPackage)
                .should().dependOnClassesThat().resideInAPackage(rootPackage)
                .because("the root package wires the others together; they take what they need as arguments");
    }

    /** Classes outside the engine use only these engine packages, and these single engine classes. */
    static ArchRule usesOnly(List<String> enginePackages, List<String> engineClasses) {
        return noClasses().that().resideOutsideOfPackage(ENGINE + "..")
                .should().dependOnClassesThat(DescribedPredicate.describe(
                        "are in an engine package other than " + String.join(", ", enginePackages)
                                + (engineClasses.isEmpty() ? "" : " and not " + String.join(", ", engineClasses)),
                        (JavaClass c) -> isInEngine(c.getPackageName()) && !enginePackages.contains(c.getPackageName())
                                && !engineClasses.contains(c.getName())))
                .because("the engine exports only its API packages (docs/design.md)");
    }

    private static boolean isInEngine(String packageName) {
        return packageName.equals(ENGINE) || packageName.startsWith(ENGINE + ".");
    }

    static SliceAssignment eachPackageUnder(String rootPackage) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                return name.equals(rootPackage) || name.startsWith(rootPackage + ".")
                        ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "each package of " + rootPackage;
            }
        };
    }
}
