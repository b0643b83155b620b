package io.seqlink.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.diagnostics.FailureAnalysisTester;
import io.seqlink.channel.PublishChannel;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * A {@code seqlink.*} key of the configuration that names no property fails startup, naming the key,
 * the nearest valid one and the keys beside it; every relaxed form Spring Boot binds passes; keys
 * from environment variables and system properties, which the machine shares, are warned about.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertiesTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class))
            .withPropertyValues("seqlink.backend=emulated", "seqlink.verify.enabled=false");

    @Test
    void aMisspeltChannelKeyFailsStartupNamingTheNearestValidKey() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1", "seqlink.channels.frames.slot-sise=4KB")
                .run(context -> assertThat(report(context.getStartupFailure()))
                        .contains("Property: seqlink.channels.frames.slot-sise")
                        .contains("there is no such property")
                        .contains("did you mean seqlink.channels.frames.slot-size?")
                        .contains("seqlink.fail-on-unknown-properties=false"));
    }

    @Test
    void aSingularConsumerKeyIsReportedBesideTheMissingConsumers() {
        runner.withPropertyValues("seqlink.channels.frames.producer=0", "seqlink.channels.frames.consumer[0]=1",
                "seqlink.channels.frames.consumer[1]=2")
                .run(context -> {
                    String report = report(context.getStartupFailure());
                    assertThat(report).contains("Property: seqlink.channels.frames.consumer\n")
                            .contains("did you mean seqlink.channels.frames.consumers?")
                            .contains("the channel has no consumers");
                    assertThat(report.split("Property: seqlink.channels.frames.consumer\n", -1)).as("reported once").hasSize(2);
                });
    }

    @Test
    void unknownKeysAtEveryLevelAreNamed() {
        runner.withPropertyValues("seqlink.backnd=auto", "seqlink.emulated.device-cont=3",
                "seqlink.listener.retry.max-attempt=2", "seqlink.zzz=1").run(context -> {
                    String report = report(context.getStartupFailure());
                    assertThat(report).contains("did you mean seqlink.backend?")
                            .contains("did you mean seqlink.emulated.device-count?")
                            .contains("did you mean seqlink.listener.retry.max-attempts?")
                            .contains("Property: seqlink.zzz");
                    assertThat(report).doesNotContain("did you mean seqlink.zzz").contains("The keys under seqlink are enabled, backend,");
                });
    }

    @Test
    void relaxedFormsAndMapKeysBindAndAreNotFlagged() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1", "seqlink.channels.frames.slotSize=4KB",
                "seqlink.channels.Results_2.consumers=0", "seqlink.channels.Results_2.producer=1",
                "seqlink.emulated.deviceCount=3", "seqlink.emulated.links.0-1=pcie-peer",
                "seqlink.emulated.links.1-to-2=host-only", "seqlink.emulated.latency.0-2=2us",
                "seqlink.listener.retry.max_attempts=2").run(context -> {
                    assertThat(context).hasNotFailed();
                    SeqlinkRuntime runtime = context.getBean(SeqlinkRuntime.class);
                    assertThat(runtime.channel("frames").map(PublishChannel::spec).orElseThrow().slotBytes()).isEqualTo(4096);
                    assertThat(runtime.devices()).hasSize(3);
                });
    }

    @Test
    void environmentVariablesInEveryFormBoot_bindsAreNotFlagged() {
        runner.withInitializer(context -> context.getEnvironment().getPropertySources().replace(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(
                        "SEQLINK_CHANNELS_FRAMES_CONSUMERS_0_", "1",
                        "SEQLINK_CHANNELS_FRAMES_SLOTSIZE", "4KB",
                        "SEQLINK_CHANNELS_FRAMES_MAX_PUBLISH_BATCH", "2",
                        "SEQLINK_EMULATED_DEVICE_COUNT", "3",
                        "SEQLINK_LISTENER_RETRY_MAXATTEMPTS", "2"))))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    PublishChannel frames = context.getBean(SeqlinkRuntime.class).channel("frames").orElseThrow();
                    assertThat(frames.spec().slotBytes()).isEqualTo(4096);
                    assertThat(frames.spec().maxPublishBatch()).isEqualTo(2);
                    assertThat(context.getBean(SeqlinkRuntime.class).devices()).hasSize(3);
                });
    }

    @Test
    void anUnknownEnvironmentVariableIsWarnedAboutNotFatal(CapturedOutput output) {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1")
                .withInitializer(context -> context.getEnvironment().getPropertySources().replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of("SEQLINK_CHANNELS_FRAMES_SLOTSISE", "4KB", "SEQLINK_HOME", "/opt/seqlink"))))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output).contains("seqlink: ignoring seqlink.channels.frames.slotsise")
                            .contains("SEQLINK_CHANNELS_FRAMES_SLOTSISE")
                            .contains("did you mean seqlink.channels.frames.slot-size?")
                            .contains("seqlink: ignoring seqlink.home");
                });
    }

    @Test
    void aMisspeltJvmSystemPropertyFailsStartupLikeTheConfigurationItIs() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1")
                .withSystemProperties("seqlink.channels.frames.slot-sise=4KB")
                .run(context -> assertThat(report(context.getStartupFailure()))
                        .contains("Property: seqlink.channels.frames.slot-sise")
                        .contains("did you mean seqlink.channels.frames.slot-size?"));
    }

    @Test
    void withTheOptOutUnknownKeysAreLoggedAndStartupGoesOn(CapturedOutput output) {
        runner.withPropertyValues("seqlink.fail-on-unknown-properties=false", "seqlink.channels.frames.consumers=1",
                "seqlink.channels.frames.slot-sise=4KB").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output).contains("seqlink: ignoring seqlink.channels.frames.slot-sise")
                            .contains("did you mean seqlink.channels.frames.slot-size?");
                });
    }

    @Test
    void keysOfAGroupAnotherModuleDeclaresAreLeftToThatModule(@TempDir Path classes) throws Exception {
        Path metadata = classes.resolve("META-INF/spring-configuration-metadata.json");
        Files.createDirectories(metadata.getParent());
        Files.writeString(metadata, """
                {"groups": [{"name": "seqlink.acme", "type": "com.example.AcmeProperties",
                             "sourceType": "com.example.AcmeProperties"}]}""");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            runner.withClassLoader(loader).withPropertyValues("seqlink.channels.frames.consumers=1",
                    "seqlink.acme.senders.frames.peer=10.0.0.2:13337", "seqlink.acmee.x=1").run(context -> {
                        String report = report(context.getStartupFailure());
                        assertThat(report).contains("Property: seqlink.acmee").doesNotContain("Property: seqlink.acme\n")
                                .doesNotContain("seqlink.acme.senders");
                    });
        }
    }

    /**
     * The configuration processor writes this module's test metadata as it writes seqlink-ucx's: the
     * group {@code seqlink.widgets} of {@link WidgetProperties}, which the check then reads.
     */
    @Test
    void keysOfAGroupWhoseRecordAnotherModuleDeclaresAreCheckedAgainstThatRecord() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1", "seqlink.widgets.link.window=8",
                "seqlink.widgets.peers.frames=10.0.0.2:13337", "seqlink.widgets.link.windw=8", "seqlink.widgets.close-timout=1s",
                "seqlink.widgets.peerz.x=1").run(context -> {
                    String report = report(context.getStartupFailure());
                    assertThat(report).contains("Property: seqlink.widgets.link.windw", "did you mean seqlink.widgets.link.window?",
                            "Property: seqlink.widgets.close-timout", "did you mean seqlink.widgets.close-timeout?",
                            "Property: seqlink.widgets.peerz", "did you mean seqlink.widgets.peers?",
                            "The keys under seqlink.widgets are link, peers, close-timeout")
                            .doesNotContain("Property: seqlink.widgets.link.window\n", "seqlink.widgets.peers.frames");
                });
    }

    /** Another module's own properties, as seqlink-ucx has {@code seqlink.ucx}. */
    @org.springframework.boot.context.properties.ConfigurationProperties("seqlink.widgets")
    record WidgetProperties(@org.springframework.boot.context.properties.bind.DefaultValue Link link, Map<String, String> peers,
            java.time.Duration closeTimeout) {

        record Link(@org.springframework.boot.context.properties.bind.DefaultValue("64") int window) {
        }
    }

    private static String report(Throwable failure) {
        assertThat(failure).as("startup failed").isNotNull();
        FailureAnalysis analysis = FailureAnalysisTester.analyze(failure);
        assertThat(analysis).as("a failure analysis").isNotNull();
        return FailureAnalysisTester.report(analysis);
    }
}
