package io.seqlink.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.backend.AllocationLimits;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.layout.RingGeometry;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.topology.LinkVerdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.stereotype.Component;

/**
 * The mistakes a new user makes, written from the README and the docs alone: each fails startup with a
 * failure analysis that names the property (or the injection point) and the fix, never a stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class NewcomerMistakesTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                    SeqlinkListenerAutoConfiguration.class))
            .withPropertyValues("seqlink.backend=emulated", "seqlink.verify.enabled=false");

    /** A service bean of the README's kind, injecting channel 'orders' by its qualifier. */
    @Component
    static class OrderService {
        final PublishChannel orders;

        OrderService(@Qualifier("orders") PublishChannel orders) {
            this.orders = orders;
        }
    }

    @Test
    void aChannelRenamedInTheConfigurationNamesTheQualifierTheChannelsAndTheNearestName() {
        String[] properties = {"seqlink.channels.order.consumers=1", "seqlink.channels.results.consumers=1"};
        runner.withUserConfiguration(OrderService.class).withPropertyValues(properties)
                .run(context -> {
                    String report = report(context.getStartupFailure(), properties);
                    assertThat(report).contains("the seqlink channel 'orders'")
                            .contains("OrderService")
                            .contains("the channels configured under seqlink.channels are [order, results]")
                            .contains("Did you mean 'order'? Inject it with @Qualifier(\"order\")")
                            .contains("seqlink.channels.orders")
                            .doesNotContain("Consider defining a bean");
                });
    }

    @Test
    void aMisspeltGroupFailsOnTheKeyBeforeTheInjectionFails() {
        runner.withUserConfiguration(OrderService.class)
                .withPropertyValues("seqlink.chanels.orders.consumers=1")
                .run(context -> {
                    String report = report(context.getStartupFailure());
                    assertThat(report).contains("seqlink.chanels").contains("did you mean seqlink.channels?")
                            .doesNotContain("Consider defining a bean");
                });
    }

    @Test
    void aMisspeltGroupOnlyWarnedAboutStillExplainsTheMissingChannel() {
        String[] properties = {"seqlink.chanels.orders.consumers=1", "seqlink.fail-on-unknown-properties=false"};
        runner.withUserConfiguration(OrderService.class).withPropertyValues(properties)
                .run(context -> {
                    String report = report(context.getStartupFailure(), properties);
                    assertThat(report).contains("the seqlink channel 'orders'")
                            .contains("no channel is configured under seqlink.channels")
                            .contains("seqlink.chanels: did you mean seqlink.channels?");
                });
    }

    @Test
    void twoChannelsWhoseNamesDifferOnlyInCaseAreRefusedNamingBoth() {
        runner.withPropertyValues("seqlink.channels.orders.consumers=1", "seqlink.channels.orders.slots=16",
                "seqlink.channels.Orders.consumers=1", "seqlink.channels.Orders.slots=32").run(context -> {
                    String report = report(context.getStartupFailure());
                    assertThat(report).contains("channels 'orders' and 'Orders' differ only in case");
                });
    }

    @Test
    void aNegativeDurationIsCalledNegativeWithTheAllowedRangeNotWrittenAsIso8601() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1", "seqlink.channels.frames.backpressure-timeout=-1s",
                "seqlink.shutdown.drain-timeout=-500ms").run(context -> {
                    String report = report(context.getStartupFailure());
                    assertThat(report).contains("seqlink.channels.frames.backpressure-timeout")
                            .contains("backpressure timeout is -1s, which is negative: it must be 0 or more")
                            .contains("the duration is -500ms, which is negative: it must be 0 or more")
                            .doesNotContainPattern("PT-?[0-9]");
                });
    }

    @Test
    void aRingWhoseHostRingsDoNotFitIsRefusedBeforeAnythingIsAllocated() {
        // one consumer device per ring of at most 2 GiB: the pre-check before counted the producer's two rings and a
        // local ring per consumer (2 + k rings) and left out the consumers' host rings (k more), allocated when the
        // listener subscribes: pick the rings so that 2 + k fit the free direct memory and 2 + 2k do not. Latest
        // delivery: the producer pushes nothing to its host listeners, which read host rings staged by their streams
        // (a lossless channel's would read its ring in place, in host memory: 1 + k rings)
        long free;
        try (SeqlinkRuntime probe = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open()) {
            AllocationLimits limits = probe.backend().limits();
            free = limits.directBytesFree();
        }
        int k = 1;
        long ring = (long) (free / (2 + 1.5 * k));
        while (ring > RingGeometry.MAX_RING_BYTES - (1 << 20)) {
            k++;
            ring = (long) (free / (2 + 1.5 * k));
        }
        long slotBytes = ring / 2 / 128 * 128 - 64; // two slots, each a whole number of lines
        List<String> consumers = new ArrayList<>();
        for (int c = 1; c <= k; c++) {
            consumers.add(String.valueOf(c));
        }
        runner.withUserConfiguration(HostListener.class)
                .withPropertyValues("seqlink.emulated.device-count=" + (k + 1), "seqlink.channels.frames.slots=2",
                        "seqlink.channels.frames.slot-size=" + slotBytes + "B", "seqlink.channels.frames.delivery=latest",
                        "seqlink.channels.frames.consumers=" + String.join(",", consumers))
                .run(context -> {
                    assertThat(context).hasFailed();
                    String report = report(context.getStartupFailure());
                    assertThat(report).contains("seqlink.channels.frames.slot-size")
                            .contains("host rings host listeners read from")
                            .doesNotContain("CUDA_ERROR_OUT_OF_MEMORY");
                });
    }

    @Component
    static class HostListener {
        @ChannelListener("frames")
        void onFrame(Frame frame) {
        }
    }

    @Test
    void linkAdviceNamesThePropertyNotTheBuilderCall(CapturedOutput output) {
        runner.withPropertyValues("seqlink.emulated.links.0-1=pcie-peer", "seqlink.topology.on-unsupported=warn",
                "seqlink.topology.required-link-class=peer-atomic", "seqlink.channels.frames.consumers=1").run(context -> {
                    assertThat(context).hasNotFailed();
                    LinkVerdict link = context.getBean(SeqlinkRuntime.class).topology().link(0, 1).orElseThrow();
                    assertThat(link.reason()).as("the endpoint's, health's and verify's reason")
                            .contains("seqlink.channels.<name>.transport=host-staged").doesNotContain("ChannelSpec.Builder");
                    assertThat(output.getOut()).as("the runtime's warning for channel 'frames'")
                            .contains("seqlink.channels.frames.transport=host-staged");
                });
        assertThat(output.getOut().lines().filter(l -> l.contains("seqlink channel 'frames': link 0 -> 1")))
                .allSatisfy(l -> assertThat(l).doesNotContain("ChannelSpec.Builder"));
    }

    private static String report(Throwable failure, String... properties) {
        assertThat(failure).as("startup failed").isNotNull();
        FailureAnalysis analysis = FailureAnalysisTester.analyze(failure, properties);
        assertThat(analysis).as("a failure analysis of %s", failure).isNotNull();
        String report = FailureAnalysisTester.report(analysis);
        assertThat(report).as("no stack trace in the report").doesNotContain("\tat ").doesNotContain("Exception:");
        return report;
    }
}
