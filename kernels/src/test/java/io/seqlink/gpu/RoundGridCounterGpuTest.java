package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.Backend;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.PublishChannel;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import io.seqlink.testing.ArmedChecksumListener;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The round-tagged grid counters of the device header on a real GPU: a round kernel ({@code take_round} ..
 * {@code end_round}) or an acknowledging kernel ({@code acknowledge_taken_at_end}) launched with several blocks, one of
 * which returns early (the misuse: {@code test_round_take} and {@code test_armed_take_acking} in test_kernels.cu take
 * the block to skip), leaves the round's counter counted. The next round's launch must then fail its round, taking
 * and acknowledging nothing and setting the consumer mirror's {@code PROTOCOL_ERROR} (the site, and the round that
 * found it), rather than count on from the leftover and acknowledge while other blocks still read; every later launch
 * fails the same way. Without the tag, the first block of the next launch would believe it is the last. Through the
 * channel, the runtime's watchdog then fails the consumer naming the rule. Launches without a skipping block
 * acknowledge every round.
 */
@Tag("gpu")
class RoundGridCounterGpuTest {

    private static final int BLOCKS = 4;
    private static final int LENGTH = 256;
    private static final long NO_BLOCK = ArmedChecksumListener.NO_BLOCK;
    /** The test kernels' results (host memory), indexed by sequence: room for 250 frames. */
    private static final long RESULT_BYTES = 8L * (4 + 2 * 256);

    /** A producer (the channel's publish step) and one direct-mode consumer's handles, on one device. */
    private static final class Setup {
        final RingGeometry g = RingGeometry.of(16, 4096);
        final DeviceBuffer control;
        final DeviceBuffer ring;
        final DeviceStream ps;
        final DeviceStream cs;
        final PublishKernel publish;
        final DeviceBuffer block;
        final MappedBuffer mirror;
        final ConsumeKernel handles;
        final MappedBuffer results;
        long published;

        Setup(Device d) {
            control = d.allocate(ControlBlock.BYTES);
            ring = d.allocate(g.ringBytes());
            ps = d.newStream("grid-counter-producer");
            cs = d.newStream("grid-counter-consumer");
            publish = ps.bindPublish(new PublishBinding(control, ring, g, d.allocateMapped(ControlBlock.BYTES), 4, List.of()));
            block = d.allocate(ConsumerBlock.BYTES);
            mirror = d.allocateMapped(ConsumerBlock.BYTES);
            handles = cs.bindConsume(new ConsumeBinding(control, ring, g, 4, null, block, mirror, false));
            results = d.allocateMapped(RESULT_BYTES);
        }

        void publish(int frames) {
            for (int i = 0; i < frames; i++) {
                ps.writeValue(ring, g.offsetOf(published + 1 + i) + SlotHeader.LENGTH, LENGTH);
            }
            publish.enqueue(frames);
            ps.synchronize();
            published += frames;
        }

        long word(int offset) {
            return mirror.getAcquire(offset);
        }
    }

    private static long error(int site, long round) {
        return (long) site << ConsumerBlock.PROTOCOL_SITE_SHIFT | round;
    }

    private static KernelCall roundKernel(Setup s) {
        return s.cs.bindKernel(ArmedChecksumListener.MODULE, "test_round_take", KernelParam.CONSUME_HANDLES, KernelParam.U64,
                KernelParam.U64, KernelParam.U64, KernelParam.U64, KernelParam.POINTER, KernelParam.U64, KernelParam.U64)
                .consumeHandles(0, s.handles).pointer(5, s.results, 0).u64(4, 0);
    }

    private static void launchRound(Setup s, KernelCall k, long first, long last, long round, long skipBlock, boolean skipTake) {
        k.u64(1, first).u64(2, last).u64(3, round).u64(6, skipBlock).u64(7, skipTake ? 1 : 0).launch(BLOCKS, 64);
        s.cs.synchronize();
    }

    @Test
    void aRoundKernelLaunchWhoseBlockSkippedEndRoundFailsEveryLaterRoundInsteadOfAcknowledging() {
        try (Backend b = Gpu.openBackend()) {
            Setup s = new Setup(b.device(0));
            KernelCall k = roundKernel(s);
            long round = 0;
            for (int i = 0; i < 50; i++) { // the tagged counters hand off like the plain ones while every block arrives
                s.publish(2);
                launchRound(s, k, s.published - 1, s.published, ++round, NO_BLOCK, false);
                assertThat(s.word(ConsumerBlock.CONSUMED_SEQ)).as("round %d", round).isEqualTo(s.published);
                assertThat(s.word(ConsumerBlock.ROUND)).isEqualTo(round);
            }
            long acked = s.published;
            assertThat(s.word(ConsumerBlock.PROTOCOL_ERROR)).isZero();
            s.publish(1);
            launchRound(s, k, acked + 1, acked + 1, ++round, BLOCKS - 1, false); // block 3 returns before end_round
            assertThat(s.word(ConsumerBlock.CONSUMED_SEQ)).as("no block was last: nothing acknowledged").isEqualTo(acked);
            assertThat(s.word(ConsumerBlock.ROUND)).as("the round never ended").isEqualTo(round - 1);
            assertThat(s.word(ConsumerBlock.PROTOCOL_ERROR)).isZero();
            for (int later = 0; later < 3; later++) {
                launchRound(s, k, acked + 1, acked + 1, ++round, NO_BLOCK, false);
                assertThat(s.word(ConsumerBlock.CONSUMED_SEQ)).as("round %d acknowledged nothing", round).isEqualTo(acked);
                assertThat(s.word(ConsumerBlock.PROTOCOL_ERROR)).isEqualTo(error(ConsumerBlock.PROTOCOL_SITE_END_ROUND, round));
                assertThat(s.word(ConsumerBlock.ROUND)).as("landed, as a round that took nothing").isEqualTo(round);
                assertThat(s.word(ConsumerBlock.READY_TO)).isEqualTo(acked);
            }
        }
    }

    @Test
    void aRoundKernelLaunchWhoseBlockSkippedTakeRoundFailsTheNextRoundAtItsTake() {
        try (Backend b = Gpu.openBackend()) {
            Setup s = new Setup(b.device(0));
            KernelCall k = roundKernel(s);
            s.publish(1);
            launchRound(s, k, 1, 1, 1, NO_BLOCK, false);
            assertThat(s.word(ConsumerBlock.CONSUMED_SEQ)).isEqualTo(1);
            s.publish(1);
            launchRound(s, k, 2, 2, 2, BLOCKS - 1, true); // block 3 returns before take_round (and end_round)
            assertThat(s.word(ConsumerBlock.CONSUMED_SEQ)).isEqualTo(1);
            launchRound(s, k, 2, 2, 3, NO_BLOCK, false);
            assertThat(s.word(ConsumerBlock.CONSUMED_SEQ)).as("round 3 took and acknowledged nothing").isEqualTo(1);
            assertThat(s.word(ConsumerBlock.PROTOCOL_ERROR)).isEqualTo(error(ConsumerBlock.PROTOCOL_SITE_TAKE_ROUND, 3));
            assertThat(s.word(ConsumerBlock.READY_TO)).isEqualTo(1);
        }
    }

    @Test
    void anAcknowledgingKernelLaunchWhoseBlockSkippedTheAckFailsTheNextRoundsAck() {
        try (Backend b = Gpu.openBackend()) {
            Device d = b.device(0);
            Setup s = new Setup(d);
            DeviceBuffer arrivals = d.allocate(Memory.ALIGNMENT);
            KernelCall acking = s.cs.bindKernel(ArmedChecksumListener.MODULE, "test_armed_take_acking", KernelParam.POINTER,
                    KernelParam.POINTER, KernelParam.U64, KernelParam.U64, KernelParam.POINTER, KernelParam.POINTER,
                    KernelParam.POINTER, KernelParam.U64, KernelParam.U64)
                    .pointer(0, s.block, 0).u64(3, LENGTH).pointer(4, s.results, 0).pointer(5, s.mirror, 0).pointer(6, arrivals, 0);
            long round = 0;
            for (long f = 1; f <= 3; f++) {
                s.publish(1);
                long r = ++round;
                long skip = f == 2 ? BLOCKS - 1 : NO_BLOCK; // frame 2's launch: block 3 returns before the ack
                s.handles.enqueue(f, f, r); // the channel's consume step writes the descriptor the ack reads
                acking.pointer(1, s.ring, s.g.payloadOffsetOf(f)).u64(2, f).u64(7, r).u64(8, skip).launch(BLOCKS, 64);
                s.cs.synchronize();
                // frame 1 acknowledged; frame 2's launch acknowledged nothing (no block was last); frame 3's failed
                assertThat(s.word(ConsumerBlock.CONSUMED_SEQ)).as("after frame %d's round", f).isEqualTo(1);
            }
            assertThat(s.word(ConsumerBlock.PROTOCOL_ERROR)).isEqualTo(error(ConsumerBlock.PROTOCOL_SITE_ACKNOWLEDGE_TAKEN, 3));
        }
    }

    /** A round kernel listener whose kernel, for one frame's round, has block 3 return before end_round. */
    private static final class SkippingRoundKernel implements DeviceFrameHandler {
        private final long skipAt;
        private final MappedBuffer results;
        private KernelCall kernel;
        /** The round holding frame skipAt has been launched. */
        volatile boolean skipped;

        SkippingRoundKernel(long skipAt, MappedBuffer results) {
            this.skipAt = skipAt;
            this.results = results;
        }

        @Override
        public boolean consumesInKernel() {
            return true;
        }

        @Override
        public void onFrames(DeviceFrames frames) {
            if (kernel == null) {
                kernel = frames.stream().bindKernel(ArmedChecksumListener.MODULE, "test_round_take", KernelParam.CONSUME_HANDLES,
                        KernelParam.U64, KernelParam.U64, KernelParam.U64, KernelParam.U64, KernelParam.POINTER, KernelParam.U64,
                        KernelParam.U64).consumeHandles(0, frames.consumeHandles())
                        .pointer(5, results, 0).u64(7, 0);
            }
            boolean skips = frames.first() <= skipAt && skipAt <= frames.last();
            kernel.u64(1, frames.first()).u64(2, frames.last()).u64(3, frames.round()).u64(4, frames.armed() ? 1 : 0)
                    .u64(6, skips ? BLOCKS - 1 : NO_BLOCK).launch(BLOCKS, 64);
            if (skips) {
                skipped = true;
            }
        }
    }

    @Test
    void throughTheChannelTheWatchdogFailsTheConsumerNamingTheRule() {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("grid-counter").producer(0).consumers(0).slots(16).slotBytes(4096)
                    .consumerFailurePolicy(ConsumerFailurePolicy.DROP_CONSUMER).build());
            ConsumerPort port = ch.consumer(0);
            MappedBuffer results = rt.backend().device(0).allocateMapped(RESULT_BYTES);
            SkippingRoundKernel listener = new SkippingRoundKernel(3, results);
            port.subscribeDevice(listener);
            rt.start();
            byte[] payload = new byte[LENGTH];
            for (long s = 1; s <= 2; s++) {
                assertThat(ch.offer(payload, 0, LENGTH)).isEqualTo(s);
            }
            assertThat(Gpu.await(() -> port.acknowledged() == 2)).as("%s", port.snapshot()).isTrue();
            assertThat(ch.offer(payload, 0, LENGTH)).isEqualTo(3); // its round's block 3 skips end_round
            assertThat(Gpu.await(() -> listener.skipped)).isTrue();
            assertThat(ch.offer(payload, 0, LENGTH)).isEqualTo(4); // the next round's launch finds the leftover
            assertThat(Gpu.await(() -> port.state() == ConsumerState.DEAD)).as("%s", port.snapshot()).isTrue();
            assertThat(port.acknowledged()).as("frames 3 and 4 never acknowledged").isEqualTo(2);
            assertThat(port.snapshot().failure()).contains("SEQLINK_ROUND_PROTOCOL").contains("end_round")
                    .contains("every block must call end_round / acknowledge_taken_at_end");
            ch.close();
            results.close();
        }
    }
}
