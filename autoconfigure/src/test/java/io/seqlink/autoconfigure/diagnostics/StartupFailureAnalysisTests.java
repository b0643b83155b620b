package io.seqlink.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.Backends;
import io.seqlink.backend.KernelsMissingException;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.Frame;
import io.seqlink.spring.listener.ChannelListener;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/** The failure analyses beyond plain property mistakes: links, backends, kernels, listeners, and Boot's own report. */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureAnalysisTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                    SeqlinkListenerAutoConfiguration.class))
            .withPropertyValues("seqlink.backend=emulated");

    @Test
    void everyInvalidPropertyOfEveryChannelIsListedInOneReport() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1,1", "seqlink.channels.frames.slots=0",
                "seqlink.channels.results.producer=1", "seqlink.channels.results.stall-timeout=0s",
                "seqlink.launcher.batch-size=0").run(context -> {
                    FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("(5 problems)")
                            .contains("seqlink.channels.frames.consumers", "seqlink.channels.frames.slots",
                                    "seqlink.channels.results.consumers", "seqlink.channels.results.stall-timeout",
                                    "seqlink.launcher.batch-size");
                    assertThat(analysis.getAction()).contains("seqlink.channels.results.stall-timeout: set a positive duration");
                });
    }

    @Test
    void deviceProblemsOfEveryChannelAreListedInOneReport() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=4", "seqlink.channels.results.producer=3",
                "seqlink.channels.results.consumers=0").run(context -> {
                    FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("(2 problems)")
                            .contains("seqlink.channels.frames.consumers", "seqlink.channels.results.producer");
                });
    }

    @Test
    void unsupportedLinkUnderPolicyFailNamesTheRequiredLinkClassAndThePolicies() {
        runner.withPropertyValues("seqlink.emulated.links.0-1=pcie-peer", "seqlink.topology.required-link-class=peer-atomic",
                "seqlink.topology.on-unsupported=fail", "seqlink.channels.frames.consumers=1").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("channel 'frames' needs link 0 -> 1")
                            .contains("seqlink.topology.required-link-class").contains("peer-copy")
                            .as("the runtime's Java-API advice in the starter's terms")
                            .contains("set the channel's transport: seqlink.channels.frames.transport=host-staged")
                            .doesNotContain("ChannelSpec.Builder");
                    assertThat(analysis.getAction()).contains("seqlink.topology.required-link-class=peer-copy")
                            .contains("seqlink.topology.on-unsupported=fallback");
                });
    }

    @Test
    void proxiedAtomicsCaughtByTheProbeFailUnderPolicyFail() {
        runner.withPropertyValues("seqlink.emulated.links.0-1=nvlink-proxied", "seqlink.topology.required-link-class=peer-atomic",
                "seqlink.channels.frames.consumers=1").run(context -> {
                    FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("seqlink.verify.max-atomic-latency");
                });
    }

    @Test
    void unsupportedLinkUnderPolicyFallbackStartsOnTheSlowerTransport() {
        runner.withPropertyValues("seqlink.emulated.links.0-1=host-only", "seqlink.topology.required-link-class=peer-atomic",
                "seqlink.topology.on-unsupported=fallback", "seqlink.channels.frames.consumers=1").run(context -> {
                    assertThat(context).hasNotFailed();
                    SeqlinkRuntime rt = context.getBean(SeqlinkRuntime.class);
                    assertThat(rt.channel("frames").orElseThrow().consumer(1).transport().name()).isEqualTo("HOST_STAGED");
                    assertThat(rt.degradedLinks()).isEmpty();
                });
    }

    @Test
    void unsupportedLinkUnderPolicyWarnStartsAndRecordsTheDegradedLink() {
        runner.withPropertyValues("seqlink.emulated.links.0-1=pcie-peer", "seqlink.topology.required-link-class=peer-atomic",
                "seqlink.topology.on-unsupported=warn", "seqlink.channels.frames.consumers=1").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SeqlinkRuntime.class).degradedLinks()).containsExactly("0->1");
                });
    }

    @Test
    void cudaBackendWithoutAUsableDriverSaysWhatToInstallOrSet() {
        Assumptions.assumeTrue(noUsableDriver(), "a CUDA driver answers here");
        runner.withPropertyValues("seqlink.backend=cuda", "seqlink.channels.frames.consumers=1").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("seqlink.backend=cuda").contains("no usable CUDA driver")
                    .doesNotContain("BackendSelection"); // the runtime's Java-API wording of the alternative stays out
            assertThat(analysis.getDescription().strip().lines()).as("the cause in one line, JCuda's loader traces at DEBUG:\n%s",
                    analysis.getDescription()).hasSizeLessThanOrEqualTo(4).noneMatch(l -> l.strip().startsWith("at "));
            assertThat(analysis.getAction()).contains("nvidia-smi").contains("seqlink.backend=auto")
                    .contains("seqlink.backend=emulated");
        });
    }

    @Test
    void missingKernelsSayHowToRebuildOrEmulate() {
        FailureAnalysis analysis = FailureAnalysisTester.analyze(new IllegalStateException("wrapped",
                new KernelsMissingException("io/seqlink/kernels/seqlink.fatbin")));
        assertThat(analysis.getDescription()).contains("io/seqlink/kernels/seqlink.fatbin").contains("without nvcc");
        assertThat(analysis.getAction()).contains("nvcc").contains("seqlink.backend=emulated");
    }

    @Test
    void channelRejectedWhenOpenedInCodeListsEveryProblem() {
        ChannelSpec spec = ChannelSpec.builder("bad/name").producer(0).consumers(1, 1).slots(0).build();
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(spec::checked);
        FailureAnalysis analysis = FailureAnalysisTester.analyze(new IllegalStateException("wrapped", failure));
        assertThat(analysis.getDescription()).contains("Invalid seqlink channel 'bad/name'").contains("name")
                .contains("consumers").contains("slots");
    }

    @Test
    void listenerOnAnUnknownChannelNamesTheMethodAndTheChannels() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1").withUserConfiguration(UnknownChannelListener.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("@ChannelListener(channel = \"camera\")")
                            .contains("UnknownChannelListener.onFrame").contains("the channels are [frames]");
                    assertThat(analysis.getAction()).contains("configure seqlink.channels.camera");
                });
    }

    @Test
    void listenerOnADeviceThatIsNotAConsumerNamesTheConsumers() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1").withUserConfiguration(WrongDeviceListener.class)
                .run(context -> {
                    FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("device 0 is not a consumer of channel 'frames'");
                    assertThat(analysis.getAction()).contains("set device to one of [1]");
                });
    }

    @Test
    void twoListenersOnOneConsumerAreRejected() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1").withUserConfiguration(TwoListeners.class)
                .run(context -> {
                    FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("already has the listener");
                });
    }

    @Test
    void listenerWithAParameterSeqlinkCannotSupplyIsRejected() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1").withUserConfiguration(BadSignature.class)
                .run(context -> {
                    FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("BadSignature.onFrame")
                            .contains("parameter 1 has type java.lang.String");
                    assertThat(analysis.getAction()).contains("take a Frame, a List<Frame> or a DeviceFrames");
                });
    }

    @Test
    void springApplicationPrintsTheReportWithEveryProperty(CapturedOutput output) {
        SpringApplication app = new SpringApplication(MinimalApp.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        org.assertj.core.api.Assertions.assertThatException().isThrownBy(() -> app.run("--seqlink.backend=emulated",
                "--seqlink.channels.frames.consumers=1,1", "--seqlink.channels.frames.slot-size=0B", "--logging.level.root=OFF",
                "--logging.level.org.springframework.boot.diagnostics=ERROR"));
        assertThat(output).contains("APPLICATION FAILED TO START").contains("seqlink.channels.frames.consumers")
                .contains("seqlink.channels.frames.slot-size").contains("Update your application's configuration");
    }

    static boolean noUsableDriver() {
        BackendProvider p = Backends.cudaProvider();
        return p == null || !p.detect().usable();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
            SeqlinkListenerAutoConfiguration.class })
    static class MinimalApp {
    }

    static class UnknownChannelListener {
        @ChannelListener(channel = "camera")
        void onFrame(Frame frame) {
        }
    }

    static class WrongDeviceListener {
        @ChannelListener(channel = "frames", device = 0)
        void onFrame(Frame frame) {
        }
    }

    static class TwoListeners {
        @ChannelListener("frames")
        void first(Frame frame) {
        }

        @ChannelListener(channel = "frames", device = 1)
        void second(List<Frame> frames) {
        }
    }

    static class BadSignature {
        @ChannelListener("frames")
        void onFrame(String frame) {
        }
    }
}
