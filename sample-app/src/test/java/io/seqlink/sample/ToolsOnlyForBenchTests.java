package io.seqlink.sample;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The sample depends on seqlink-tools for its {@code bench} mode only: its pipeline's workloads and kernels
 * are its own, so no class but the bench command touches the tools' packages.
 */
class ToolsOnlyForBenchTests {

    @Test
    void onlyTheBenchCommandUsesTheTools() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.seqlink.sample");
        noClasses().that().doNotHaveFullyQualifiedName("io.seqlink.sample.cli.BenchCommand")
                .should().dependOnClassesThat().resideInAnyPackage("io.seqlink.bench..", "io.seqlink.soak..", "io.seqlink.report..",
                        "io.seqlink.jmh..")
                .because("the sample's workloads and kernels live with the sample (issue 11); the tools serve its bench mode")
                .check(classes);
    }
}
