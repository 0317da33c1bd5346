package dev.prism.examples;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PRISM's module boundary, enforced on the compiled classes of every module: an {@code internal} package is its own
 * module's business. What other modules and plugins need is public API (each module's root package) or core's
 * {@code dev.prism.spi}. The arrows between modules point one way: nothing depends on the CLI, core on no module.
 */
class ModuleBoundaryTest {
    private static JavaClasses prism;

    @BeforeAll
    static void importPrism() {
        // every module's classes, from its jar or its target/classes, and core's test jar (test helpers, core's own)
        prism = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.prism");
    }

    /** @return the module a package belongs to: the root of {@code dev.prism.<module>}, core for the rest */
    static String moduleOf(String pkg) {
        for (String module : List.of("posix", "torch", "cli", "report", "junit", "examples")) {
            if (pkg.equals("dev.prism." + module) || pkg.startsWith("dev.prism." + module + ".")) {
                return module;
            }
        }
        return "core";
    }

    private static final ArchCondition<JavaClass> STAY_OUT_OF_OTHER_MODULES_INTERNALS =
            new ArchCondition<>("use no internal package of another module") {
                @Override
                public void check(JavaClass item, ConditionEvents events) {
                    String from = moduleOf(item.getPackageName());
                    for (Dependency d : item.getDirectDependenciesFromSelf()) {
                        String target = d.getTargetClass().getPackageName();
                        boolean internal = target.startsWith("dev.prism.") && (target.contains(".internal.") || target.endsWith(".internal"));
                        if (internal && !moduleOf(target).equals(from)) {
                            events.add(SimpleConditionEvent.violated(d, from + " reaches into " + moduleOf(target) + ": "
                                    + d.getDescription()));
                        }
                    }
                }
            };

    @Test
    void everyModuleIsSeen() {
        assertThat(prism.stream().map(c -> moduleOf(c.getPackageName())).distinct())
                .contains("core", "posix", "torch", "cli", "report", "junit");
    }

    @Test
    void noModuleReachesIntoAnotherModulesInternals() {
        classes().that().resideInAPackage("dev.prism..").should(STAY_OUT_OF_OTHER_MODULES_INTERNALS).check(prism);
    }

    @Test
    void coreKnowsNoOtherModule() {
        noClasses().that().resideInAnyPackage("dev.prism", "dev.prism.internal..", "dev.prism.spi..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.prism.posix..", "dev.prism.torch..", "dev.prism.cli..",
                        "dev.prism.report..", "dev.prism.junit..")
                .check(prism);
    }

    @Test
    void nothingDependsOnTheCommandLine() {
        noClasses().that().resideOutsideOfPackages("dev.prism.cli..", "dev.prism.examples..")
                .should().dependOnClassesThat().resideInAPackage("dev.prism.cli..").check(prism);
    }

    /**
     * The command line is a client of the API: it names benchmarks and hands their parameters to core as text, which
     * makes each through its provider; it never reaches back into a benchmark module's types to adjust what it made
     * (as it once did to spread torchrun over nodes). Managing datasets is posix's API, used as such.
     */
    @Test
    void theCommandLineRunsBenchmarksThroughCoreOnly() {
        noClasses().that().resideInAPackage("dev.prism.cli..").and().haveNameNotMatching("dev\\.prism\\.cli\\.DatasetCommand.*")
                .should().dependOnClassesThat().resideInAnyPackage("dev.prism.posix..", "dev.prism.torch..")
                .check(prism);
    }

    @Test
    void coreCarriesNoStatisticsOrChartLibrary() {
        noClasses().that().resideInAnyPackage("dev.prism", "dev.prism.internal..", "dev.prism.spi..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.commons.math3..", "org.webjars..")
                .check(prism);
    }
}
