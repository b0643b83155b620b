package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.testing.ArmedChecksumListener.Ending;
import io.seqlink.topology.Transport;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Armed rounds of a device listener on a real GPU: the consumer stream holds wait, consume step,
 * the listener's kernel ({@code test_armed_take}, which reads the round's descriptor with
 * {@code seqlink::device::round_frames}) and {@code seqlink_ack_ready}, all enqueued before the frame is
 * published. The kernel counts, in host memory, each frame it took and its checksum, so "once, in order,
 * intact" is checked where the work ran; a round released by a pause or close does nothing and its ack
 * leaves {@code acked} alone. Each test runs also with the listener acknowledging in its kernel
 * ({@code test_armed_take_acking}, {@code seqlink::device::acknowledge_taken_at_end}; no ack step) and with it
 * consuming in its kernel ({@code test_round_take}: {@code take_round}, the frames read in place, {@code end_round};
 * no consume step, no ack step: the round is one kernel behind the wait).
 */
@Tag("gpu")
class ArmedDeviceRoundsGpuTest {

    private static final int LENGTH = 1024;

    private static ChannelSpec.Builder spec(String name) {
        return ChannelSpec.builder(name).producer(0).consumers(0).slots(16).slotBytes(4096);
    }

    static Stream<Arguments> transportsAndAcks() {
        return Stream.of(Transport.SAME_DEVICE, Transport.PEER_ATOMIC, Transport.PEER_COPY, Transport.HOST_STAGED)
                .flatMap(t -> Stream.of(Ending.values()).map(e -> Arguments.of(t, e)));
    }

    private static void offer(PublishChannel ch, long s) {
        assertThat(ch.offer(ArmedChecksumListener.payload(s, LENGTH), 0, LENGTH)).isEqualTo(s);
    }

    /** Polls until the port acknowledged {@code s} and its poller counted the frames up to it. */
    private static boolean awaitTaken(ConsumerPort port, long s) {
        return Gpu.await(() -> port.poll(1) >= 0 && port.acknowledged() >= s && port.snapshot().delivered() >= s);
    }

    @ParameterizedTest
    @MethodSource("transportsAndAcks")
    void pingPongFramesAreTakenByArmedDeviceRounds(Transport transport, Ending ending) {
        int frames = 2_000;
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("armed-device-" + transport.name().toLowerCase()).transport(transport).build());
            ConsumerPort port = ch.consumer(0);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), frames, LENGTH, ending); // bound before any arm
            port.subscribeDevice(listener);
            for (long s = 1; s <= frames; s++) {
                port.poll(1);
                assertThat(Gpu.finished(port)).as("frame %d armed before it is published", s).isFalse();
                offer(ch, s);
                assertThat(awaitTaken(port, s)).as("frame %d: %s", s, port.snapshot()).isTrue();
            }
            ConsumerSnapshot c = port.snapshot();
            long wrong = 0;
            for (long s = 1; s <= frames; s++) {
                wrong += listener.deliveries(s) == 1 && listener.intact(s) ? 0 : 1;
                assertThat(listener.calls(s)).as("frame %d: its armed call only: %s", s, c).isEqualTo(1);
            }
            assertThat(wrong).as("frames not taken once intact: %s", c).isZero();
            assertThat(listener.outOfOrder()).isZero();
            assertThat(c.hostEmptyPolls()).as("rounds started by seeing the mirror move while idle: %s", c).isZero();
            assertThat(c.armedEarlyWakes()).as("armed rounds woken before their frame: %s", c).isZero();
            ch.close();
            listener.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Ending.class)
    void aReleasedArmedDeviceRoundDoesNothingAndItsAckMovesNothing(Ending ending) {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("armed-device-release").build());
            ConsumerPort port = ch.consumer(0);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 8, LENGTH, ending);
            port.subscribeDevice(listener);
            port.poll(1);
            offer(ch, 1);
            assertThat(awaitTaken(port, 1)).isTrue();
            port.poll(1);
            assertThat(Gpu.finished(port)).as("frame 2 armed").isFalse();
            assertThat(port.pause()).isTrue();
            assertThat(Gpu.await(() -> Gpu.finished(port))).as("the pause released the wait").isTrue();
            assertThat(listener.untakenLaunches()).as("the released round's kernel saw READY_TO < first").isEqualTo(1);
            assertThat(port.acknowledged()).as("the released round's ack acknowledged nothing").isEqualTo(1);
            assertThat(port.resume()).isTrue();
            offer(ch, 2);
            assertThat(awaitTaken(port, 2)).isTrue();
            assertThat(listener.deliveries(2)).isEqualTo(1);
            assertThat(listener.intact(2)).isTrue();
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
            assertThat(report.clean()).as("%s", report).isTrue();
            listener.close();
        }
    }

    /** A live producer against random releases (pauses and a short stall timeout): every frame once, in order, intact. */
    @ParameterizedTest
    @EnumSource(Ending.class)
    void aLiveProducerRacingRandomReleasesLosesAndRepeatsNothing(Ending ending) throws Exception {
        int frames = 20_000;
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("armed-device-race").slots(8).stallTimeout(Duration.ofMillis(5)).build());
            ConsumerPort port = ch.consumer(0);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), frames, LENGTH, ending);
            port.subscribeDevice(listener);
            AtomicBoolean done = new AtomicBoolean();
            Thread producer = new Thread(() -> {
                for (long s = 1; s <= frames; s++) {
                    byte[] payload = ArmedChecksumListener.payload(s, LENGTH);
                    while (ch.offer(payload, 0, LENGTH) < 0) {
                        Thread.onSpinWait();
                    }
                }
            });
            Thread releaser = Gpu.randomReleaser(port, done);
            producer.start();
            releaser.start();
            boolean all = Gpu.await(() -> port.poll(4) >= 0 && port.acknowledged() >= frames);
            done.set(true);
            producer.join();
            releaser.join();
            port.resume();
            ConsumerSnapshot c = port.snapshot();
            assertThat(all).as("%s", c).isTrue();
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
            assertThat(report.clean()).as("%s", report).isTrue();
            long wrong = 0;
            for (long s = 1; s <= frames; s++) {
                wrong += listener.deliveries(s) == 1 && listener.intact(s) ? 0 : 1;
            }
            assertThat(wrong).as("frames not taken once intact: %s", c).isZero();
            assertThat(listener.outOfOrder()).isZero();
            listener.close();
        }
    }
}
