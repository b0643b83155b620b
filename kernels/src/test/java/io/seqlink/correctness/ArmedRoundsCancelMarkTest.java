package io.seqlink.correctness;

import static io.seqlink.correctness.ArmedDeviceRoundsTest.LENGTH;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.WAIT;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.awaitAcked;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.offer;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.open;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.PublishChannel;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.testing.ArmedChecksumListener.Ending;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cancel word: an armed round the host cancelled takes nothing published after the cancel returned, though
 * its wait passes after that publish. The round is armed (frame 1 not published), the port paused (its cancel marks
 * the round in the consumer's {@code ARM_CANCEL}, mirror and device block, then raises the doorbell), and only then is frame 1 published; the
 * port resumes, and the armed round's step runs after the publish (an inline stream runs it when the poller next
 * asks; a threaded one may run it earlier, before the publish, which takes nothing either). The round lands empty,
 * counted as released, and frame 1 comes by an ordinary round, once. Without the mark the step's acquire read saw
 * frame 1 and took it (an inline stream every time).
 */
class ArmedRoundsCancelMarkTest {

    static Stream<Arguments> modesAndEndings() {
        return ArmedDeviceRoundsTest.modesAndAcks();
    }

    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aCancelledHostRoundTakesNothingPublishedAfterTheCancel(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("cancel-mark-host", 0, 1).build());
            ConsumerPort port = ch.consumer(1);
            List<Long> got = new CopyOnWriteArrayList<>();
            port.subscribe(f -> got.add(f.sequence()));
            assertThat(port.poll(1)).isZero();
            assertThat(port.stream().completed()).as("frame 1 armed: the wait holds the stream").isFalse();
            assertThat(port.pause()).isTrue(); // cancels the armed round: the mark, then the doorbell
            offer(ch, 1);                        // published after the cancel returned
            ch.producerStream().synchronize();
            assertThat(port.resume()).isTrue();
            assertThat(Rig.await(WAIT, () -> port.poll(1) >= 0 && got.size() == 1)).as("%s", port.snapshot()).isTrue();
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.armedReleased()).as("the cancelled round landed empty: %s", c).isEqualTo(1);
            assertThat(got).as("frame 1 once, by an ordinary round").containsExactly(1L);
            assertThat(c.delivered()).isEqualTo(1);
            assertThat(c.shortRounds()).isZero();
            ch.close();
        }
    }

    @ParameterizedTest
    @MethodSource("modesAndEndings")
    void aCancelledDeviceRoundTakesNothingPublishedAfterTheCancel(EmulatedTopology.StreamMode mode, Ending ending) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("cancel-mark-device", 0, 1).build());
            ConsumerPort port = ch.consumer(1);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 4, LENGTH, ending);
            port.subscribeDevice(listener);
            assertThat(port.poll(1)).isZero();
            assertThat(port.stream().completed()).as("frame 1 armed: the wait holds the stream").isFalse();
            assertThat(listener.calls(1)).as("the armed round's listener call, as it was armed").isEqualTo(1);
            assertThat(port.pause()).isTrue();
            offer(ch, 1);
            ch.producerStream().synchronize();
            assertThat(port.resume()).isTrue();
            assertThat(awaitAcked(port, 1)).as("%s", port.snapshot()).isTrue();
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.armedReleased()).as("the cancelled round landed empty: %s", c).isEqualTo(1);
            assertThat(listener.untakenLaunches()).as("the armed round's kernel took nothing: %s", c).isEqualTo(1);
            assertThat(listener.deliveries(1)).as("frame 1 once, by an ordinary round: %s", c).isEqualTo(1);
            assertThat(listener.intact(1)).isTrue();
            assertThat(listener.calls(1)).as("the armed call, then the ordinary round's").isEqualTo(2);
            assertThat(c.delivered()).isEqualTo(1);
            assertThat(c.shortRounds()).isZero();
            ch.close();
            listener.close();
        }
    }
}
