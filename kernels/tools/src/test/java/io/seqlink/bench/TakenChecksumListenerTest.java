package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.PublishChannel;
import io.seqlink.topology.VerifierSettings;
import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The benchmarks' device listener ({@link TakenChecksumListener}) on the emulated backend, in each of its endings
 * (the channel's ack step, the in-kernel ack, the round kernel that consumes in its kernel): with armed rounds and
 * without, each frame's checksum lands in its result word and every frame is acknowledged, so the GPU rows
 * ({@code cycle-channel-device-round}, {@code channel-device-round}, ...) measure work that is right.
 */
class TakenChecksumListenerTest {

    private static final int LENGTH = 256;

    @ParameterizedTest
    @EnumSource(TakenChecksumListener.Ending.class)
    void eachEndingChecksumsEveryFrameAndAcknowledgesIt(TakenChecksumListener.Ending ending) {
        for (boolean armed : new boolean[] {false, true}) {
            try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(2))
                    .verifier(VerifierSettings.defaults().withEnabled(false)).open()) {
                PublishChannel ch = rt.openChannel(ChannelSpec.builder("taken-" + ending).producer(0).consumers(1).slots(16)
                        .slotBytes(LENGTH).armedRounds(armed).build());
                ConsumerPort port = ch.consumer(1);
                MappedBuffer sums = rt.backend().device(1).allocateMapped(8 * ChecksumListener.RESULT_WORDS);
                TakenChecksumListener listener = new TakenChecksumListener(port.stream(), LENGTH, sums, ending);
                port.subscribeDevice(listener);
                byte[] frame = new byte[LENGTH];
                for (long s = 1; s <= 40; s++) {
                    port.poll(4);
                    FramePattern.fill(ByteBuffer.wrap(frame), 0, LENGTH, s);
                    assertThat(ch.offer(frame, 0, LENGTH)).isEqualTo(s);
                    long deadline = System.nanoTime() + 20_000_000_000L;
                    while (port.acknowledged() < s && System.nanoTime() - deadline < 0) {
                        port.poll(4);
                    }
                    assertThat(port.acknowledged()).as("%s, armed %s, frame %d", ending, armed, s).isGreaterThanOrEqualTo(s);
                    assertThat(sums.getAcquire(8 * s)).as("%s, armed %s, frame %d", ending, armed, s)
                            .isEqualTo(FramePattern.expectedChecksum(s, LENGTH));
                }
                ch.close();
                listener.close();
                sums.close();
            }
        }
    }
}
