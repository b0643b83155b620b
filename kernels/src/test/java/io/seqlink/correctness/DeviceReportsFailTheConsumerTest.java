package io.seqlink.correctness;

import static io.seqlink.correctness.ArmedDeviceRoundsTest.LENGTH;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.PublishChannel;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.testing.ArmedChecksumListener.Ending;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a consumer's device steps report of a broken channel rule fails the consumer, through the launcher's
 * watchdog, with a message that names the cause:
 * <ul>
 *   <li>short rounds: the producer's host mirror runs ahead of {@code publish_seq} (an injected fault,
 *       {@code EmulatedFaults.runMirrorAhead}), so the launcher gives ordinary rounds frames that are not there; the
 *       consume step (or a round kernel's {@code end_round}) counts each round that ends short of its range in
 *       {@code SHORT_ROUNDS}, which a device listener's round would otherwise acknowledge in full;</li>
 *   <li>a round kernel's protocol error: on a GPU, a launch of which a block returned before {@code end_round} leaves
 *       the round's grid counter counted, and the next round's launch fails its round and sets the mirror's
 *       {@code PROTOCOL_ERROR} (RoundGridCounterGpuTest checks that on a GPU). A twin runs as one thread and has no
 *       blocks, so here a twin writes that word as the header's {@code end_round} would, and the host must fail the
 *       consumer naming the rule.</li>
 * </ul>
 * Without the checks the consumer stayed ACTIVE (and a device listener's acknowledgement passed what was published).
 */
class DeviceReportsFailTheConsumerTest {

    private enum Listener { HOST, DEVICE, ROUND_KERNEL }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void ordinaryRoundsThatEndShortOfTheirRangeFailTheConsumer(Listener kind) {
        for (EmulatedTopology.StreamMode mode : EmulatedTopology.StreamMode.values()) {
            try (SeqlinkRuntime rt = ArmedDeviceRoundsTest.open(mode)) {
                PublishChannel ch = rt.openChannel(Rig.channel("short-rounds-" + kind.name().toLowerCase(), 0, 1)
                        .consumerFailurePolicy(ConsumerFailurePolicy.DROP_CONSUMER).build());
                ConsumerPort port = ch.consumer(1);
                ArmedChecksumListener device = null;
                if (kind == Listener.HOST) {
                    port.subscribe(f -> { });
                } else {
                    device = new ArmedChecksumListener(port.stream(), 8, LENGTH,
                            kind == Listener.DEVICE ? Ending.ACK_STEP : Ending.ROUND_KERNEL);
                    port.subscribeDevice(device);
                }
                Rig.emulated(rt).faults().runMirrorAhead(0, 2);
                rt.start();
                ArmedDeviceRoundsTest.offer(ch, 1);
                assertThat(Rig.await(WAIT, () -> port.state() == ConsumerState.DEAD)).as("%s %s: %s", kind, mode, port.snapshot())
                        .isTrue();
                ConsumerSnapshot c = port.snapshot();
                assertThat(c.shortRounds()).as("%s", c).isPositive();
                assertThat(c.failure()).contains("SEQLINK_SHORT_ROUND").contains("shortRounds")
                        .contains("ran ahead of publish_seq");
                ch.close();
                if (device != null) {
                    device.close();
                }
            }
        }
    }

    /** The twin of a round kernel whose end_round, on a GPU, found its grid counter left by an earlier launch. */
    private static final class MisusedRoundKernel implements DeviceFrameHandler {
        private final AtomicLong failedRound = new AtomicLong();
        private final KernelModule module = KernelModule.builder("protocol", KernelImage.ofResource("no/such/image.fatbin"))
                .emulated("round", call -> {
                    call.takeRound(0, call.u64(1), call.u64(2), call.u64(3), call.u64(4) != 0);
                    if (call.u64(1) == 2) { // what end_round writes when it finds the counter left: no ack, the error word
                        long round = call.u64(3);
                        call.memory(5).putLong(call.offset(5) + ConsumerBlock.PROTOCOL_ERROR,
                                (long) ConsumerBlock.PROTOCOL_SITE_END_ROUND << ConsumerBlock.PROTOCOL_SITE_SHIFT | round);
                        failedRound.set(round);
                        return;
                    }
                    call.endRound(0);
                }).build();
        private KernelCall kernel;

        @Override
        public boolean consumesInKernel() {
            return true;
        }

        @Override
        public void onFrames(DeviceFrames frames) {
            if (kernel == null) {
                kernel = frames.stream().bindKernel(module, "round", KernelParam.CONSUME_HANDLES, KernelParam.U64, KernelParam.U64,
                        KernelParam.U64, KernelParam.U64, KernelParam.POINTER).consumeHandles(0, frames.consumeHandles())
                        .pointer(5, frames.acknowledgement(), 0);
            }
            kernel.u64(1, frames.first()).u64(2, frames.last()).u64(3, frames.round()).u64(4, frames.armed() ? 1 : 0).launch(1, 1);
        }
    }

    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aRoundKernelsProtocolErrorFailsTheConsumerNamingTheRule(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = ArmedDeviceRoundsTest.open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("protocol-error", 0, 1).armedRounds(false)
                    .consumerFailurePolicy(ConsumerFailurePolicy.DROP_CONSUMER).build());
            ConsumerPort port = ch.consumer(1);
            MisusedRoundKernel listener = new MisusedRoundKernel();
            port.subscribeDevice(listener);
            rt.start();
            ArmedDeviceRoundsTest.offer(ch, 1);
            assertThat(Rig.await(WAIT, () -> port.acknowledged() == 1)).as("%s", port.snapshot()).isTrue();
            ArmedDeviceRoundsTest.offer(ch, 2);
            assertThat(Rig.await(WAIT, () -> port.state() == ConsumerState.DEAD)).as("%s", port.snapshot()).isTrue();
            assertThat(listener.failedRound.get()).isPositive();
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.acknowledged()).as("the failed round acknowledged nothing").isEqualTo(1);
            assertThat(c.failure()).contains("SEQLINK_ROUND_PROTOCOL").contains("end_round")
                    .contains("round " + listener.failedRound.get() + ":")
                    .contains("every block must call end_round / acknowledge_taken_at_end");
            ch.close();
        }
    }
}
