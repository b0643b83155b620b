package io.seqlink;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The kernels module's boundaries: Spring-free, and JCuda only behind the CUDA backend's seam. */
class ArchitectureTest {

    private static JavaClasses kernels;

    @BeforeAll
    static void importMainClasses() {
        kernels = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.seqlink");
    }

    @Test
    void kernelsImportNothingFromSpring() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .because("the kernels module is the Spring-free runtime; Spring lives in autoconfigure")
                .check(kernels);
    }

    @Test
    void onlyTheCudaBackendTouchesJCuda() {
        noClasses().that().resideOutsideOfPackage("io.seqlink.backend.cuda..")
                .should().dependOnClassesThat().resideInAPackage("jcuda..")
                .because("JCuda is optional and unmaintained: it stays behind the backend seam (io.seqlink.backend.cuda)")
                .check(kernels);
    }

    @Test
    void theRuntimeIsReallyImported() {
        // guards the two rules above against passing on an empty import
        org.assertj.core.api.Assertions.assertThat(kernels.contain(SeqlinkRuntime.class)).isTrue();
        org.assertj.core.api.Assertions.assertThat(kernels.size()).isGreaterThan(50);
    }
}
