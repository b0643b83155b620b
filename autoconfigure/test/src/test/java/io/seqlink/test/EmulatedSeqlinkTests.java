package io.seqlink.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendKind;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.test.context.EmulatedSeqlink;
import io.seqlink.topology.LinkClass;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

/** {@code @EmulatedSeqlink} gives a {@code @SpringBootTest} its simulated machine, fault injection and waits. */
class EmulatedSeqlinkTests {

    static final Duration TIMEOUT = Duration.ofSeconds(20);

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Counter.class)
    static class App {
    }

    /**
     * A device listener that enqueues nothing (the channel's consume step and ack still run on its device): the
     * consumer device's faults reach its work. A host listener's frames on a lossless channel are pushed by the
     * producer and read in host memory, so faults of its consumer device never reach it.
     */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(DeviceCounter.class)
    static class DeviceApp {
    }

    static class DeviceCounter {
        final AtomicLong frames = new AtomicLong();

        @ChannelListener(channel = "frames")
        void onFrames(DeviceFrames round) {
            frames.addAndGet(round.last() - round.first() + 1);
        }
    }

    /** Counts the frames each consumer device gets. */
    static class Counter {
        final AtomicLong frames = new AtomicLong();

        @ChannelListener(channel = "frames")
        void onFrame(Frame frame) {
            frames.incrementAndGet();
        }
    }

    @Nested
    @SpringBootTest(classes = App.class, properties = { "seqlink.channels.frames.consumers=1,2",
            "seqlink.channels.frames.slots=8", "seqlink.channels.frames.stall-timeout=200ms",
            "seqlink.launcher.idle-strategy=park" })
    @EmulatedSeqlink(devices = 3, links = "0-2=pcie-peer")
    class Healthy {

        @Autowired
        SeqlinkRuntime runtime;

        @Autowired
        @Qualifier("frames")
        PublishChannel frames;

        @Autowired
        Counter counter;

        @Test
        void theRuntimeRunsTheSimulatedMachineOfTheAnnotation() {
            assertThat(runtime.backendKind()).isEqualTo(BackendKind.EMULATED);
            assertThat(runtime.devices()).containsExactly(0, 1, 2);
            assertThat(runtime.topology().link(0, 1).orElseThrow().verdict()).isEqualTo(LinkClass.PEER_ATOMIC);
            assertThat(runtime.topology().link(0, 2).orElseThrow().verdict()).isEqualTo(LinkClass.PEER_COPY);
        }

        @Test
        void awaitAcknowledgedReturnsOnceEveryConsumerTookTheFrame() {
            long before = counter.frames.get();
            long seq = SeqlinkTestUtils.publish(frames, new byte[] {1, 2, 3}, TIMEOUT);
            SeqlinkTestUtils.awaitAcknowledged(frames, seq, TIMEOUT);
            assertThat(counter.frames.get()).isEqualTo(before + 2);
        }
    }

    @Nested
    @SpringBootTest(classes = DeviceApp.class, properties = { "seqlink.channels.frames.consumers=1,2",
            "seqlink.channels.frames.slots=8", "seqlink.channels.frames.stall-timeout=200ms",
            "seqlink.launcher.idle-strategy=park" })
    @EmulatedSeqlink(devices = 3, links = "0-2=pcie-peer")
    @DirtiesContext
    class StalledDevice {

        @Autowired
        @Qualifier("frames")
        PublishChannel frames;

        @Autowired
        SeqlinkFaults faults;

        @Test
        void aStalledDeviceIsReportedStalledAndCatchesUpWhenResumed() {
            faults.stallDevice(2);
            try {
                long seq = SeqlinkTestUtils.publish(frames, new byte[] {7}, TIMEOUT);
                SeqlinkTestUtils.awaitConsumer(frames, 2, c -> c.stalled(), TIMEOUT);
                SeqlinkTestUtils.awaitConsumer(frames, 1, c -> c.acknowledged() >= seq, TIMEOUT);
            } finally {
                faults.resumeDevice(2);
            }
            SeqlinkTestUtils.awaitDrained(frames, TIMEOUT);
            assertThat(SeqlinkTestUtils.awaitConsumer(frames, 2, c -> !c.stalled(), TIMEOUT).state())
                    .isEqualTo(ConsumerState.ACTIVE);
        }
    }

    @Nested
    @SpringBootTest(classes = DeviceApp.class, properties = { "seqlink.channels.frames.consumers=1,2",
            "seqlink.channels.frames.consumer-failure-policy=drop-consumer" })
    @EmulatedSeqlink(devices = 3)
    @DirtiesContext
    class FailedLaunches {

        @Autowired
        @Qualifier("frames")
        PublishChannel frames;

        @Autowired
        SeqlinkFaults faults;

        @Test
        void aConsumerWhoseLaunchesFailDiesAndTheOtherGoesOn() {
            faults.failLaunches(2, 1);
            long seq = SeqlinkTestUtils.publish(frames, new byte[] {9}, TIMEOUT);
            assertThat(SeqlinkTestUtils.awaitConsumer(frames, 2, c -> c.state() == ConsumerState.DEAD, TIMEOUT).failure())
                    .isNotBlank();
            SeqlinkTestUtils.awaitAcknowledged(frames, seq, TIMEOUT);
        }
    }
}
