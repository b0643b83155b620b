package io.seqlink.autoconfigure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The module boundaries the design sets, checked on the compiled classes. */
class ArchitectureTests {

    /** The classes of this module (its main output only), imported from where they were loaded. */
    private static final JavaClasses STARTER = new ClassFileImporter()
            .importUrl(SeqlinkAutoConfiguration.class.getProtectionDomain().getCodeSource().getLocation());

    /** The classes of the kernels module: its jar, or its classes folder in a reactor build. */
    private static final JavaClasses KERNELS = new ClassFileImporter()
            .importUrl(io.seqlink.SeqlinkRuntime.class.getProtectionDomain().getCodeSource().getLocation());

    @Test
    void bothModulesWereImported() {
        org.assertj.core.api.Assertions.assertThat(STARTER.contain(SeqlinkAutoConfiguration.class)).isTrue();
        org.assertj.core.api.Assertions.assertThat(KERNELS.contain(io.seqlink.SeqlinkRuntime.class)).isTrue();
        org.assertj.core.api.Assertions.assertThat(KERNELS.contain(SeqlinkAutoConfiguration.class)).isFalse();
    }

    @Test
    void starterClassesDoNotDependOnJcuda() {
        noClasses().that().resideInAnyPackage("io.seqlink.autoconfigure..", "io.seqlink.spring..")
                .should().dependOnClassesThat().resideInAnyPackage("jcuda..")
                .because("JCuda stays behind the kernels' backend seam; no bean signature may expose it")
                .check(STARTER);
    }

    @Test
    void kernelsClassesOutsideTheCudaBackendDoNotDependOnJcuda() {
        noClasses().that().resideInAPackage("io.seqlink..").and().resideOutsideOfPackage("io.seqlink.backend.cuda..")
                .should().dependOnClassesThat().resideInAnyPackage("jcuda..")
                .because("only the CUDA backend may load JCuda; the rest must run without it")
                .check(KERNELS);
    }

    @Test
    void kernelsDoNotDependOnSpring() {
        noClasses().that().resideInAPackage("io.seqlink..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..")
                .because("the kernels module is Spring-free")
                .check(KERNELS);
    }

    @Test
    void spiClassesDoNotDependOnAutoConfigurations() {
        noClasses().that().resideInAPackage("io.seqlink.spring..")
                .should().dependOnClassesThat().resideInAPackage("io.seqlink.autoconfigure..")
                .because("health, endpoint, metrics and listener classes are usable without the auto-configuration")
                .check(STARTER);
    }
}
