package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameBatchHandler;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.topology.Transport;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A host listener on a consumer the channel opened with a host push ({@link ChannelSpec#hostListeners}): the producer's
 * publish step pushes every frame into pinned host memory and the listener reads it there, with no consume step on the
 * consumer's device. Every frame once, in order, intact, over many laps of a small ring, on every transport; padding
 * (claims given back, claims of dead producer threads) skipped and counted; listeners replaced between host and device
 * kinds with nothing lost or repeated; the drain accounting for every frame; a latest channel and a consumer without
 * the hint staged as before; and no allocation per frame.
 */
class HostPushTest {

    private static final int FRAMES = 3_000;

    /** Counts every frame by its id and checks it is whole and in order. */
    static final class Tally implements FrameHandler {
        final AtomicIntegerArray seen = new AtomicIntegerArray(FRAMES + 1);
        final AtomicLong corrupt = new AtomicLong();
        final AtomicLong outOfOrder = new AtomicLong();
        final AtomicLong count = new AtomicLong();
        volatile long lastSequence;

        @Override
        public void onFrame(Frame frame) {
            take(frame);
        }

        void take(Frame frame) {
            ByteBuffer p = frame.payload();
            long id = frame.length() >= 8 ? p.getLong(0) : -1;
            if (!Rig.intact(p, frame.length()) || id < 1 || id > FRAMES || p.getLong(8) != ~id) {
                corrupt.incrementAndGet();
                return;
            }
            if (frame.sequence() <= lastSequence) {
                outOfOrder.incrementAndGet();
            }
            lastSequence = frame.sequence();
            seen.incrementAndGet((int) id);
            count.incrementAndGet();
        }

        String report() {
            long lost = 0;
            long duplicated = 0;
            for (int i = 1; i <= FRAMES; i++) {
                int n = seen.get(i);
                lost += n == 0 ? 1 : 0;
                duplicated += Math.max(0, n - 1);
            }
            return "lost " + lost + ", duplicated " + duplicated + ", corrupt " + corrupt.get() + ", out of order " + outOfOrder.get();
        }
    }

    private static void offerAll(PublishChannel ch, long first, long last) {
        for (long id = first; id <= last; ) {
            if (ch.offer(ByteBuffer.wrap(Rig.frame(id, ~id))) > 0) {
                id++;
            } else {
                Thread.onSpinWait();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"PEER_ATOMIC", "PEER_COPY", "HOST_STAGED"})
    void everyPushedFrameReachesTheHostListenerOnceInOrderWithNoConsumeStep(Transport transport) {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("push-" + transport.name().toLowerCase().replace('_', '-'), 0, 1)
                    .transport(transport).slots(16).maxPublishBatch(4).hostListeners(1).build());
            Tally tally = new Tally();
            ConsumerPort port = ch.consumer(1).subscribe(tally);
            rt.start();
            offerAll(ch, 1, FRAMES);
            assertThat(Rig.await(Duration.ofSeconds(60), () -> port.acknowledged() >= FRAMES)).as("acknowledged: %s", port.snapshot())
                    .isTrue();
            assertThat(tally.report()).isEqualTo("lost 0, duplicated 0, corrupt 0, out of order 0");
            ConsumerSnapshot s = port.snapshot();
            assertThat(s.delivered()).isEqualTo(FRAMES);
            assertThat(s.deviceConsumeSteps()).as("consume steps on the consumer's device: the producer pushed the frames").isZero();
            assertThat(s.armedEarlyWakes() + s.armedReleased()).as("nothing armed").isZero();
        }
    }

    @Test
    void theProducersOwnDeviceAndBatchListenersArePushedToo() {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("push-same-device", 0, 0, 1).slots(16).maxPublishBatch(4)
                    .hostListeners(0, 1).build());
            Tally same = new Tally();
            Tally batches = new Tally();
            ConsumerPort onProducer = ch.consumer(0).subscribe(same);
            ConsumerPort batched = ch.consumer(1).subscribeBatches((FrameBatchHandler) frames -> frames.forEach(batches::take));
            rt.start();
            offerAll(ch, 1, FRAMES);
            assertThat(Rig.await(Duration.ofSeconds(60), () -> onProducer.acknowledged() >= FRAMES && batched.acknowledged() >= FRAMES))
                    .as("acknowledged: %s / %s", onProducer.snapshot(), batched.snapshot()).isTrue();
            assertThat(same.report()).isEqualTo("lost 0, duplicated 0, corrupt 0, out of order 0");
            assertThat(batches.report()).isEqualTo("lost 0, duplicated 0, corrupt 0, out of order 0");
            assertThat(onProducer.transport()).isEqualTo(Transport.SAME_DEVICE);
            assertThat(onProducer.snapshot().deviceConsumeSteps()).isZero();
            assertThat(batched.snapshot().deviceConsumeSteps()).isZero();
        }
    }

    @Test
    void aConsumerWithoutTheHintAndALatestChannelAreStagedAsBefore() {
        try (SeqlinkRuntime rt = Rig.runtime(3).open()) {
            PublishChannel lossless = rt.openChannel(Rig.channel("push-mixed", 0, 1, 2).slots(16).maxPublishBatch(4).hostListeners(1)
                    .build());
            PublishChannel latest = rt.openChannel(Rig.channel("push-latest", 0, 1).slots(16).maxPublishBatch(4)
                    .delivery(Delivery.LATEST).hostListeners(1).build());
            Tally pushed = new Tally();
            Tally staged = new Tally();
            AtomicLong latestFrames = new AtomicLong();
            lossless.consumer(1).subscribe(pushed);
            lossless.consumer(2).subscribe(staged);
            latest.consumer(1).subscribe(frame -> latestFrames.incrementAndGet());
            rt.start();
            offerAll(lossless, 1, FRAMES);
            for (int i = 0; i < 200; i++) {
                latest.offer(ByteBuffer.wrap(Rig.frame(i, ~i)));
                Rig.await(Duration.ofSeconds(10), () -> latest.consumer(1).acknowledged() >= latest.snapshot().published());
            }
            assertThat(Rig.await(Duration.ofSeconds(60), () -> lossless.consumer(1).acknowledged() >= FRAMES
                    && lossless.consumer(2).acknowledged() >= FRAMES)).isTrue();
            assertThat(pushed.report()).isEqualTo("lost 0, duplicated 0, corrupt 0, out of order 0");
            assertThat(staged.report()).isEqualTo("lost 0, duplicated 0, corrupt 0, out of order 0");
            assertThat(lossless.consumer(1).snapshot().deviceConsumeSteps()).isZero();
            assertThat(lossless.consumer(2).snapshot().deviceConsumeSteps()).as("no hint: staged by its stream").isPositive();
            assertThat(latest.spec().pushesToHost(1)).as("latest never pushes: the producer does not wait for the reader").isFalse();
            assertThat(latest.consumer(1).snapshot().deviceConsumeSteps()).isPositive();
            assertThat(latestFrames.get()).isPositive();
        }
    }

    @Test
    void aHostListenerHintOutsideTheConsumersIsAViolationNamingTheBuilderCall() {
        ChannelSpec spec = Rig.channel("push-bad", 0, 1).hostListeners(2).build();
        assertThat(spec.validate("")).singleElement().satisfies(v -> {
            assertThat(v.property()).isEqualTo("host-listeners");
            assertThat(v.fix()).contains("hostListeners(");
        });
    }

    @Test
    void claimsGivenBackAndClaimsOfDeadThreadsArePaddingThePushedListenerSkipsAndCounts() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).drainTimeout(Duration.ofSeconds(5)).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("push-padding", 0, 1).slots(16).maxPublishBatch(4).hostListeners(1).build());
            Tally tally = new Tally();
            ConsumerPort port = ch.consumer(1).subscribe(tally);
            rt.start();
            long padding = 0;
            long id = 1;
            while (id <= FRAMES) {
                if (id % 97 == 0 && padding < 20) {
                    Thread doomed = new Thread(() -> {
                        if (ch.claim(1, TimeUnit.SECONDS) > 0) {
                            ch.buffer().putLong(0, -1); // never committed: the thread dies holding the claim
                        }
                    });
                    doomed.start();
                    doomed.join();
                    padding++;
                }
                long seq = ch.claim(1, TimeUnit.SECONDS);
                assertThat(seq).isPositive();
                Rig.writeFrame(ch.buffer(), id, ~id);
                if (id % 89 == 0 && padding < 40) {
                    assertThat(ch.abandon()).isTrue();
                    padding++;
                    continue; // the same frame again
                }
                ch.commit(24);
                ch.publish();
                id++;
            }
            long sequences = FRAMES + padding;
            assertThat(Rig.await(Duration.ofSeconds(60), () -> port.acknowledged() >= sequences)).as("%s", port.snapshot()).isTrue();
            assertThat(tally.report()).isEqualTo("lost 0, duplicated 0, corrupt 0, out of order 0");
            long expected = padding;
            assertThat(Rig.await(Duration.ofSeconds(10), () -> port.snapshot().paddingSkipped() == expected))
                    .as("padding skipped once each: %s", port.snapshot()).isTrue();
            assertThat(ch.snapshot().claimsAbandoned()).isEqualTo(padding);
        }
    }

    /** A device listener that counts the sequences of its rounds on the host (its frames are not read). */
    static final class SequenceCounter implements DeviceFrameHandler {
        final AtomicIntegerArray seen;

        SequenceCounter(AtomicIntegerArray seen) {
            this.seen = seen;
        }

        @Override
        public void onFrames(DeviceFrames frames) {
            for (long s = frames.first(); s <= frames.last(); s++) {
                seen.incrementAndGet((int) s);
            }
        }
    }

    @Test
    void listenersReplacedBetweenHostAndDeviceKindsTakeEveryFrameOnceAndTheAckNeverMovesBack() throws Exception {
        // threaded streams: a device listener's stream-written ack lands after the host moved on, as on a GPU
        EmulatedTopology topology = EmulatedTopology.builder(2).streamMode(EmulatedTopology.StreamMode.THREADED).build();
        try (SeqlinkRuntime rt = Rig.runtime(topology).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("push-flip", 0, 1).slots(16).maxPublishBatch(4).hostListeners(1).build());
            AtomicIntegerArray bySequence = new AtomicIntegerArray(FRAMES + 1);
            AtomicLong corrupt = new AtomicLong();
            java.util.function.Consumer<Frame> take = frame -> {
                if (!Rig.intact(frame.payload(), frame.length()) || frame.payload().getLong(0) != frame.sequence()) {
                    corrupt.incrementAndGet();
                }
                bySequence.incrementAndGet((int) frame.sequence());
            };
            FrameHandler host = take::accept;
            DeviceFrameHandler device = new SequenceCounter(bySequence);
            ConsumerPort port = ch.consumer(1).subscribe(host);
            rt.start();
            AtomicLong backwards = new AtomicLong();
            Thread flipper = new Thread(() -> {
                long seen = 0;
                for (int i = 0; port.acknowledged() < FRAMES; i++) {
                    if (i % 2 == 0) {
                        port.subscribeDevice(device);
                    } else if (i % 3 == 0) {
                        port.subscribeBatches((FrameBatchHandler) frames -> frames.forEach(take));
                    } else {
                        port.subscribe(host);
                    }
                    for (int k = 0; k < 50; k++) {
                        long ack = port.acknowledged();
                        if (ack < seen) {
                            backwards.incrementAndGet();
                        }
                        seen = ack;
                        Thread.onSpinWait();
                    }
                }
            }, "flipper");
            flipper.start();
            offerAll(ch, 1, FRAMES); // the id is the sequence: one producer, nothing given back
            flipper.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(Rig.await(Duration.ofSeconds(60), () -> port.acknowledged() >= FRAMES)).as("%s", port.snapshot()).isTrue();
            long lost = 0;
            long repeated = 0;
            for (int s = 1; s <= FRAMES; s++) {
                lost += bySequence.get(s) == 0 ? 1 : 0;
                repeated += Math.max(0, bySequence.get(s) - 1);
            }
            assertThat(lost).as("sequences no listener took").isZero();
            assertThat(repeated).as("sequences taken twice").isZero();
            assertThat(corrupt.get()).isZero();
            assertThat(backwards.get()).as("times the acknowledgement moved back").isZero();
        }
    }

    @Test
    void theDrainAccountsForEveryPushedFrame() {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("push-drain", 0, 1).slots(16).maxPublishBatch(4).hostListeners(1).build());
            Tally tally = new Tally();
            ch.consumer(1).subscribe(tally);
            rt.start();
            offerAll(ch, 1, FRAMES);
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(30));
            assertThat(report.clean()).as("%s", report).isTrue();
            assertThat(tally.report()).isEqualTo("lost 0, duplicated 0, corrupt 0, out of order 0");
            assertThat(tally.count.get()).isEqualTo(FRAMES);
        }
    }

    @Test
    void aUsersPollOfPushedFramesAllocatesNothingPerFrame() {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("push-alloc", 0, 1).slots(64).slotBytes(64).maxPublishBatch(16)
                    .hostListeners(1).build());
            long[] sum = new long[1];
            FrameHandler handler = frame -> sum[0] += frame.payload().getLong(0);
            ConsumerPort port = ch.consumer(1).subscribe(handler);
            ByteBuffer frame = ByteBuffer.allocateDirect(24).order(ByteOrder.LITTLE_ENDIAN);
            com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long allocated = 0;
            int timed = 40_000;
            for (int i = 1; i <= 20_000 + timed; i++) {
                Rig.writeFrame(frame.clear(), i, ~i);
                while (ch.offer(frame) <= 0) {
                    port.poll(64);
                }
                long before = bean.getCurrentThreadAllocatedBytes();
                int polled = 0;
                while (polled == 0) {
                    polled = port.poll(64);
                }
                if (i > 20_000) {
                    allocated += bean.getCurrentThreadAllocatedBytes() - before;
                }
            }
            assertThat(sum[0]).isEqualTo((long) (20_000 + timed) * (20_000 + timed + 1) / 2);
            assertThat(port.snapshot().deviceConsumeSteps()).isZero();
            assertThat(allocated).as("bytes the polls of %d pushed frames allocated", timed).isLessThan(4096);
        }
    }

    @Test
    void theHintNamesOnlyConsumers() {
        assertThat(Rig.channel("push-list", 0, 1, 2).hostListeners(List.of(2)).build().pushesToHost(2)).isTrue();
        assertThat(Rig.channel("push-list", 0, 1, 2).hostListeners(List.of(2)).build().pushesToHost(1)).isFalse();
    }
}
