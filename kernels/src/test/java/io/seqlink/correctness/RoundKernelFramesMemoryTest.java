package io.seqlink.correctness;

import static io.seqlink.correctness.ArmedDeviceRoundsTest.LENGTH;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.awaitAcked;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.offer;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.open;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.ReadMode;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A round kernel (a listener that consumes in its kernel) on a copy-mode channel has no consume step, so nothing
 * fills the consumer's local ring: {@link DeviceFrames#memory()} must be the ring the round reads in place (the
 * source ring: the producer's, or its replica), so that a kernel reading a frame at {@code memory()} +
 * {@code payloadOffset(s)} reads the frame. The listener's kernel (a twin) compares the bytes there with the
 * frame's payload. Before, {@code memory()} was the local ring and every frame read there was stale (zeros).
 */
class RoundKernelFramesMemoryTest {

    /** Reads each frame the round took at frames.memory() + payloadOffset(s), counting those whose bytes are not the frame's. */
    private static final class ReadsThroughMemory implements DeviceFrameHandler {
        final AtomicInteger read = new AtomicInteger();
        final AtomicInteger wrong = new AtomicInteger();
        private final KernelModule module = KernelModule.builder("memory", KernelImage.ofResource("no/such/image.fatbin"))
                .emulated("round", call -> {
                    long first = call.u64(1);
                    long end = call.takeRound(0, first, call.u64(2), call.u64(3), call.u64(4) != 0);
                    if (end >= first) { // one frame per round (the test polls one at a time): the pointer is its payload
                        ByteBuffer memory = call.memory(5);
                        byte[] expected = ArmedChecksumListener.payload(first, LENGTH);
                        for (int i = 0; i < LENGTH; i++) {
                            if (memory.get(call.offset(5) + i) != expected[i]) {
                                wrong.incrementAndGet();
                                break;
                            }
                        }
                        read.incrementAndGet();
                    }
                    call.endRound(0);
                }).build();
        private KernelCall kernel;

        @Override
        public boolean consumesInKernel() {
            return true;
        }

        @Override
        public boolean acceptsArmedRounds() {
            return true;
        }

        @Override
        public void onFrames(DeviceFrames frames) {
            if (kernel == null) {
                kernel = frames.stream().bindKernel(module, "round", KernelParam.CONSUME_HANDLES, KernelParam.U64, KernelParam.U64,
                        KernelParam.U64, KernelParam.U64, KernelParam.POINTER).consumeHandles(0, frames.consumeHandles());
            }
            kernel.u64(1, frames.first()).u64(2, frames.last()).u64(3, frames.round()).u64(4, frames.armed() ? 1 : 0)
                    .pointer(5, frames.memory(), frames.payloadOffset(frames.first())).launch(1, 1);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"PEER_ATOMIC", "PEER_COPY", "HOST_STAGED"})
    void aRoundKernelReadsItsFramesThroughDeviceFramesMemoryInCopyMode(Transport transport) {
        for (boolean armedRounds : new boolean[] {false, true}) {
            try (SeqlinkRuntime rt = open(EmulatedTopology.StreamMode.INLINE)) {
                PublishChannel ch = rt.openChannel(Rig.channel("round-kernel-memory", 0, 1).readMode(ReadMode.COPY)
                        .transport(transport).armedRounds(armedRounds).build());
                ReadsThroughMemory listener = new ReadsThroughMemory();
                ch.consumer(1).subscribeDevice(listener);
                for (long s = 1; s <= 6; s++) {
                    ch.consumer(1).poll(1);
                    offer(ch, s);
                    assertThat(awaitAcked(ch.consumer(1), s)).as("%s, armed %s, frame %d", transport, armedRounds, s).isTrue();
                }
                assertThat(listener.read.get()).as("%s, armed %s", transport, armedRounds).isEqualTo(6);
                assertThat(listener.wrong.get()).as("%s, armed %s: frames read stale at memory()", transport, armedRounds).isZero();
                ch.close();
            }
        }
    }
}
