package io.seqlink.ucx;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ArchitectureTests {

    private final JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.seqlink.ucx");

    @Test
    void theBridgeCoreIsSpringFree() {
        noClasses().that().resideInAnyPackage("io.seqlink.ucx", "io.seqlink.ucx.link").should().dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "io.micrometer..").check(classes);
    }

    @Test
    void theBridgeUsesOnlyThePublicChannelApi() {
        noClasses().that().resideInAPackage("io.seqlink.ucx..").should().dependOnClassesThat()
                .resideInAnyPackage("io.seqlink.launcher..", "io.seqlink.backend..", "io.seqlink.layout..").check(classes);
    }

    @Test
    void theHandshakeDecodersArePureFunctionsOverBytes() {
        noClasses().that().haveFullyQualifiedName("io.seqlink.ucx.link.Handshake")
                .or().haveFullyQualifiedName("io.seqlink.ucx.link.MalformedMessageException")
                .should().dependOnClassesThat().resideInAnyPackage("org.openucx..")
                .because("every decoder is fuzzed without UCX (DecoderFuzzTests): what a peer sends is checked before any "
                        + "UCX call uses it").check(classes);
    }
}
