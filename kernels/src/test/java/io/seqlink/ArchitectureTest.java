package io.seqlink;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runtime module's boundaries: Spring-free, JCuda only behind the CUDA backend's seam, a backend
 * SPI that names no implementation, no package cycles, no tooling, and every package {@code @NullMarked}.
 */
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
    void theBackendSpiImportsNoImplementation() {
        noClasses().that().resideInAPackage("io.seqlink.backend")
                .should().dependOnClassesThat().resideInAnyPackage("io.seqlink.backend.cuda..", "io.seqlink.backend.emulated..")
                .because("implementations are found by ServiceLoader or given by the caller (Backends, BackendProvider)")
                .check(kernels);
    }

    @Test
    void theTopLevelPackagesAreFreeOfCycles() {
        slices().matching("io.seqlink.(*)..").should().beFreeOfCycles().check(kernels);
    }

    @Test
    void everyPackageIsFreeOfCycles() {
        // finer than the rule above: io.seqlink itself and each sub-package (backend vs backend.emulated) count apart
        slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass type) {
                return SliceIdentifier.of(type.getPackageName());
            }

            @Override
            public String getDescription() {
                return "each package of io.seqlink";
            }
        }).should().beFreeOfCycles().check(kernels);
    }

    @Test
    void theChannelApiNamesNoImplementation() {
        noClasses().that().resideInAPackage("io.seqlink.channel")
                .should().dependOnClassesThat().resideInAnyPackage("io.seqlink.channel.producer..", "io.seqlink.channel.consumer..",
                        "io.seqlink.channel.lifecycle..", "io.seqlink.channel.memory..", "io.seqlink.channel.shared..")
                .because("io.seqlink.channel is the API users touch (interfaces, values, exceptions); its implementation "
                        + "lives in the sub-packages, so a user's import never reaches it")
                .check(kernels);
    }

    @Test
    void producerAndConsumerKnowNothingOfEachOtherNorOfTheChannelThatWiresThem() {
        noClasses().that().resideInAPackage("io.seqlink.channel.producer..")
                .should().dependOnClassesThat().resideInAnyPackage("io.seqlink.channel.consumer..", "io.seqlink.channel.lifecycle..")
                .because("the producer reads its consumers' gating only as a function the channel gives it")
                .check(kernels);
        noClasses().that().resideInAPackage("io.seqlink.channel.consumer..")
                .should().dependOnClassesThat().resideInAnyPackage("io.seqlink.channel.producer..", "io.seqlink.channel.lifecycle..")
                .because("a consumer port reads its producer through ProducerView, which the channel implements")
                .check(kernels);
    }

    @Test
    void noPartOfAConsumerPortHoldsThePort() {
        noClasses().that().resideInAPackage("io.seqlink.channel.consumer..").and().doNotHaveSimpleName("DefaultConsumerPort")
                .and().doNotHaveSimpleName("PortDriver")
                .should().dependOnClassesThat().haveSimpleName("DefaultConsumerPort")
                .because("a part of the port gets what it needs passed in, or owns its state; none holds its owner to call back "
                        + "into it (PortDriver is the launcher's view of the port, which returns it)")
                .check(kernels);
    }

    @Test
    void theChannelsImplementationIsPublicOnlyWhereAnotherPackageMustReachIt() {
        Set<String> publicTypes = kernels.stream()
                .filter(c -> c.getPackageName().startsWith("io.seqlink.channel.") && c.getModifiers().contains(
                        JavaModifier.PUBLIC) && !c.isNestedClass())
                .map(JavaClass::getSimpleName).collect(Collectors.toCollection(TreeSet::new));
        assertThat(publicTypes).as("public types of the channel's implementation: each is a seam another package must "
                + "reach (the runtime, the launcher, the channel that wires producer and consumers)")
                .containsExactlyInAnyOrder("Channels", "ChannelEvents", "DefaultConsumerPort", "PortDriver", "ProducerView",
                        "ListenerThreads", "Transports", "Producer", "ProducerAdmission", "ProducerTransport", "PublishTimeRecord", "RingPlace", "MemoryGuard",
                        "ChannelExport", "AttachedChannels", "PublishBell", "SeatLease");
    }

    @Test
    void theCrossProcessPartKnowsTheChannelOnlyThroughItsSeams() {
        noClasses().that().resideInAPackage("io.seqlink.channel.shared..")
                .should().dependOnClassesThat().resideInAnyPackage("io.seqlink.channel.producer..", "io.seqlink.channel.lifecycle..")
                .because("an export gives the channel its region's control block and ring (the ring itself, or a push target) "
                        + "and a gating bound, and reads the producer only through "
                        + "the published count the channel hands it; an attachment is a consumer port over shared memory")
                .check(kernels);
        noClasses().that().resideInAnyPackage("io.seqlink.channel.producer..", "io.seqlink.channel.consumer..")
                .should().dependOnClassesThat().resideInAPackage("io.seqlink.channel.shared..")
                .because("a port and a producer do not know whether a process boundary is behind them: the link "
                        + "(Transport.SHARED_MEMORY) and the channel's gating carry it")
                .check(kernels);
    }

    @Test
    void theLauncherArmsPublishBellsOnlyThroughItsPortDriver() {
        noClasses().that().resideInAPackage("io.seqlink.launcher..")
                .should().dependOnClassesThat().haveSimpleName("PublishBell")
                .because("PortDriver.armWake arms a port's bell only while the port is active and has a listener: a loop "
                        + "that armed a paused port's bell would be woken by every publish it cannot take")
                .check(kernels);
    }

    @Test
    void everyListenerDeliveryIsOneSealedType() {
        classes().that().resideInAPackage("io.seqlink.channel.consumer").and().haveSimpleNameEndingWith("Delivery")
                .should().beAssignableTo("io.seqlink.channel.consumer.ListenerDelivery")
                .because("a listener kind is a type with its own behaviour (ListenerDelivery), not a flag tested in many places")
                .check(kernels);
    }

    @Test
    void theRuntimeHoldsNoTooling() {
        noClasses().should().resideInAnyPackage("io.seqlink.bench..", "io.seqlink.soak..", "io.seqlink.jmh..")
                .orShould().haveSimpleNameEndingWith("Benchmark").orShould().haveSimpleName("BenchSupport")
                .because("benchmarks and the soak runner live in kernels/tools (seqlink-tools), which no service loads")
                .check(kernels);
    }

    @Test
    void everyPackageIsNullMarked() {
        Set<String> packages = kernels.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
        assertThat(packages).hasSizeGreaterThan(9).allSatisfy(p -> assertThat(kernels.getPackage(p).isAnnotatedWith(NullMarked.class))
                .as("%s has a package-info.java annotated @NullMarked", p).isTrue());
    }

    @Test
    void theRuntimeIsReallyImported() {
        // guards the rules above against passing on an empty import
        assertThat(kernels.contain(SeqlinkRuntime.class)).isTrue();
        assertThat(kernels.size()).isGreaterThan(50);
    }
}
