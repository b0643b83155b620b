package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.PatternKernels;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.lifecycle.Channels;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import io.seqlink.topology.Transport;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Armed rounds on a real GPU: a caught-up host-listener consumer waits on its stream
 * ({@code cuStreamWaitValue64} on the frame's doorbell) and its consume step keeps its own acquire read;
 * the host releases the wait on close, pause, stall timeout and a consumer lost, without the producer
 * and without a device reset. "Armed" is observed as the consumer stream not completing while nothing is
 * published ({@code cuStreamQuery}).
 */
@Tag("gpu")
class ArmedRoundsGpuTest {


    private static ChannelSpec.Builder spec(String name) {
        return ChannelSpec.builder(name).producer(0).consumers(0).slots(16).slotBytes(16 * 1024);
    }

    /** Subscribes a verifying host listener and polls once: frame 1 is armed (the consumer stream does not complete). */
    private static Gpu.Verifier armFirstFrame(ConsumerPort port) {
        Gpu.Verifier v = new Gpu.Verifier(16 * 1024, true);
        port.subscribe(v);
        port.poll(1);
        assertThat(Gpu.finished(port)).as("frame 1 armed").isFalse();
        return v;
    }

    /** One frame at a time, each taken by the round armed before it was published: no early wake, none lost. */
    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"SAME_DEVICE", "PEER_ATOMIC", "PEER_COPY", "HOST_STAGED"})
    void pingPongFramesAreTakenByArmedRounds(Transport transport) {
        int frames = 2_000;
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("armed-" + transport.name().toLowerCase()).transport(transport).build());
            ConsumerPort port = ch.consumer(0);
            Gpu.Verifier v = new Gpu.Verifier(16 * 1024, true);
            port.subscribe(v);
            PatternKernels pattern = PatternKernels.on(ch.producerStream(), TestKernels.MODULE); // bound before any arm
            for (long s = 1; s <= frames; s++) {
                port.poll(1);
                assertThat(Gpu.finished(port)).as("frame %d armed before it is published", s).isFalse();
                Gpu.produce(ch, 1, pattern);
                long expected = s;
                assertThat(Gpu.await(() -> port.poll(1) >= 0 && v.received.get() == expected)).as("frame %d: %s", s, v).isTrue();
            }
            ConsumerSnapshot c = ch.snapshot().consumers().get(0);
            assertThat(v.corrupt.get()).isZero();
            assertThat(v.outOfOrder.get()).isZero();
            assertThat(c.hostEmptyPolls()).as("rounds started by seeing the mirror move while idle: %s", c).isZero();
            assertThat(c.armedEarlyWakes()).as("armed rounds woken before their frame (early wakes): %s", c).isZero();
            assertThat(c.deviceEmptyPolls()).as("ordinary consume steps that found nothing: %s", c).isZero();
        }
    }

    /**
     * Binding a kernel loads a module, which waits for the device's queued work: the backend releases the armed
     * round first (run 1 on the H200 hung here for ever before it did), the round lands empty, and the frame
     * comes by an ordinary round.
     */
    @Test
    void bindingAKernelWhileARoundIsArmedReleasesIt() {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("armed-bind").build());
            ConsumerPort port = ch.consumer(0);
            Gpu.Verifier v = armFirstFrame(port);
            Gpu.produce(ch, 1); // binds the pattern kernels now
            assertThat(Gpu.await(() -> port.poll(1) >= 0 && v.received.get() == 1)).as("%s", v).isTrue();
            assertThat(v.corrupt.get()).isZero();
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.armedEarlyWakes()).as("the backend's release is counted as a release: %s", c).isZero();
            assertThat(c.armedReleased()).as("at most the one round the module load released: %s", c).isLessThanOrEqualTo(1);
            assertThat(c.deviceEmptyPolls()).as("ordinary consume steps that found nothing: %s", c).isZero();
        }
    }

    @Test
    void closeReleasesAnArmedRound() {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("armed-close").build());
            ConsumerPort port = ch.consumer(0);
            Gpu.Verifier v = armFirstFrame(port);
            long t0 = System.nanoTime();
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
            assertThat(report.clean()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            assertThat(v.received.get()).isZero();
        }
    }

    @Test
    void pauseAndTheStallTimeoutReleaseArmedRoundsAndTheFramesComeOnce() {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("armed-release").stallTimeout(Duration.ofMillis(50)).build());
            ConsumerPort port = ch.consumer(0);
            Gpu.Verifier v = new Gpu.Verifier(16 * 1024, true);
            port.subscribe(v);
            port.poll(1);
            assertThat(port.pause()).isTrue();
            assertThat(Gpu.await(() -> Gpu.finished(port))).as("pause released the wait").isTrue();
            Gpu.produce(ch, 1);
            assertThat(port.resume()).isTrue();
            assertThat(Gpu.await(() -> port.poll(1) >= 0 && v.received.get() == 1)).isTrue();
            port.poll(1);
            assertThat(Gpu.finished(port)).as("frame 2 armed").isFalse();
            assertThat(Gpu.await(() -> port.poll(1) == 0 && Gpu.finished(port))).as("the stall timeout released frame 2's wait").isTrue();
            Gpu.produce(ch, 1);
            assertThat(Gpu.await(() -> port.poll(1) >= 0 && v.received.get() == 2)).isTrue();
            assertThat(v.corrupt.get()).isZero();
            assertThat(v.outOfOrder.get()).isZero();
        }
    }

    @Test
    void aLostConsumerReleasesItsArmedRound() {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("armed-lost").consumerFailurePolicy(ConsumerFailurePolicy.DROP_CONSUMER).build());
            ConsumerPort port = ch.consumer(0);
            port.subscribe(new Gpu.Verifier(16 * 1024, true));
            port.poll(1);
            assertThat(Gpu.finished(port)).isFalse();
            Channels.consumerDeviceLost(ch, 0, new IllegalStateException("lost in the test"));
            assertThat(Gpu.await(() -> Gpu.finished(port))).as("the dead consumer holds no wait").isTrue();
            ch.close();
        }
    }

    /** A live producer against random releases: every frame once, in order, intact, without a device reset. */
    @Test
    void aLiveProducerRacingRandomReleasesLosesAndRepeatsNothing() throws Exception {
        long frames = 20_000;
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("armed-race").slots(8).slotBytes(4096).build());
            ConsumerPort port = ch.consumer(0);
            Gpu.Verifier v = new Gpu.Verifier(4096, true);
            port.subscribe(v);
            AtomicBoolean done = new AtomicBoolean();
            Thread producer = new Thread(() -> Gpu.produce(ch, frames));
            Thread releaser = Gpu.randomReleaser(port, done);
            producer.start();
            releaser.start();
            boolean all = Gpu.await(() -> port.poll(4) >= 0 && v.received.get() >= frames);
            done.set(true);
            producer.join();
            releaser.join();
            assertThat(all).as("%s", v).isTrue();
            assertThat(v.corrupt.get()).isZero();
            assertThat(v.outOfOrder.get()).isZero();
            assertThat(v.received.get()).isEqualTo(frames);
        }
    }
}
