package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameBatchHandler;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.channel.ReadMode;
import io.seqlink.layout.SlotHeader;
import io.seqlink.testing.PaddingFlagsListener;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.stream.Stream;

/**
 * {@code abandon()} gives a claim back: its sequence is published as padding, which consumers
 * acknowledge and no listener, error handler or drain count sees as a frame; the frames other threads
 * committed behind it go on.
 */
class AbandonTest {

    /** How a consumer's listener is subscribed: every kind must skip padding. */
    enum Listener {
        FRAMES(got -> port -> port.subscribe((FrameHandler) f -> got.add(f.sequence()))),
        BATCHES(got -> port -> port.subscribeBatches((FrameBatchHandler) batch -> {
            for (Frame f : batch) {
                got.add(f.sequence());
            }
        }));

        final Function<List<Long>, java.util.function.Consumer<ConsumerPort>> subscribe;

        Listener(Function<List<Long>, java.util.function.Consumer<ConsumerPort>> subscribe) {
            this.subscribe = subscribe;
        }
    }

    @Test
    void aThreadWithoutAClaimHasNothingToGiveBack() {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("nothing", 0, 1).build());
            assertThat(ch.abandon()).isFalse();
            assertThat(ch.tryClaim()).isEqualTo(1);
            ch.commit(0);
            assertThat(ch.abandon()).as("after the commit: the claim is gone").isFalse();
            assertThat(ch.snapshot().claimsAbandoned()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void anAbandonedClaimIsPublishedAsPaddingThatNoListenerSees(Listener kind) throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("padding-" + kind, 0, 1).build());
            List<Long> got = new CopyOnWriteArrayList<>();
            ConsumerPort port = ch.consumer(1);
            kind.subscribe.apply(got).accept(port);
            rt.start();

            assertThat(ch.offer(Rig.frame(1, 1), 0, 24)).isEqualTo(1);
            assertThat(ch.tryClaim()).isEqualTo(2);
            Rig.writeFrame(ch.buffer(), 2, 2);
            assertThat(ch.abandon()).isTrue();
            assertThat(ch.abandon()).as("given back once").isFalse();
            assertThat(ch.offer(Rig.frame(3, 3), 0, 24)).as("sequences stay contiguous").isEqualTo(3);

            assertThat(Rig.await(Duration.ofSeconds(10), () -> port.acknowledged() == 3)).as("acknowledged %d", port.acknowledged())
                    .isTrue();
            assertThat(got).containsExactly(1L, 3L);
            // the counters follow the acknowledgement (the poller applies a round's outcome after enqueuing its ack)
            assertThat(Rig.await(Duration.ofSeconds(10), () -> port.snapshot().paddingSkipped() == 1)).isTrue();
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.delivered()).isEqualTo(2);
            assertThat(c.deadLettered()).isZero();
            ChannelSnapshot s = ch.snapshot();
            assertThat(s.claimsAbandoned()).isEqualTo(1);
            assertThat(s.published()).isEqualTo(3);
            assertThat(s.openClaim()).isNull();
        }
    }

    static Stream<Arguments> transportsAndReadModes() {
        return Stream.of(Transport.PEER_ATOMIC, Transport.PEER_COPY, Transport.HOST_STAGED)
                .flatMap(t -> Stream.of(ReadMode.COPY, ReadMode.DIRECT).map(m -> Arguments.of(t, m)));
    }

    /** Every transport carries the padding's length word to the ring its consumer reads, replicas included. */
    @ParameterizedTest
    @MethodSource("transportsAndReadModes")
    void paddingReachesEveryTransportsConsumerAsPadding(Transport transport, ReadMode readMode) throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(3).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("padding-" + transport + "-" + readMode, 0, 1, 2).transport(transport)
                    .readMode(readMode).build());
            List<Long> got = new CopyOnWriteArrayList<>();
            ConsumerPort host = ch.consumer(1).subscribe(f -> got.add(f.sequence()));
            PaddingFlagsListener flags = new PaddingFlagsListener(ch.consumer(2).stream(), 8);
            ConsumerPort device = ch.consumer(2).subscribeDevice(flags);
            rt.start();

            assertThat(ch.offer(Rig.frame(1, 1), 0, 24)).isEqualTo(1);
            assertThat(ch.tryClaim()).isEqualTo(2);
            assertThat(ch.abandon()).isTrue();
            assertThat(ch.offer(Rig.frame(3, 3), 0, 24)).isEqualTo(3);
            assertThat(DeadProducerTest.claimAndDie(ch)).isEqualTo(4);
            assertThat(ch.offer(Rig.frame(5, 5), 0, 24)).as("gives the dead claim back").isEqualTo(5);

            assertThat(Rig.await(Duration.ofSeconds(10), () -> host.snapshot().delivered() == 3 && device.snapshot().delivered() == 3))
                    .as("%s", ch.snapshot()).isTrue();
            assertThat(got).containsExactly(1L, 3L, 5L);
            assertThat(List.of(flags.flag(1), flags.flag(2), flags.flag(3), flags.flag(4), flags.flag(5)))
                    .as("seqlink::device::abandoned(c, s) for 1..5").containsExactly(2L, 1L, 2L, 1L, 2L);
            assertThat(host.snapshot().paddingSkipped()).isEqualTo(2);
            assertThat(device.snapshot().paddingSkipped()).isEqualTo(2);
            ch.close();
            flags.close();
        }
    }

    @Test
    void aDeviceListenersKernelSeesPaddingAsANegativeLengthAndTheHostDoesNotCountItDelivered() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("padding-device", 0, 1).build());
            Map<Long, Long> lengths = new ConcurrentHashMap<>();
            ConsumerPort port = ch.consumer(1).subscribeDevice(new LengthRecorder(lengths));
            rt.start();

            assertThat(ch.offer(Rig.frame(1, 1), 0, 24)).isEqualTo(1);
            assertThat(ch.tryClaim()).isEqualTo(2);
            assertThat(ch.abandon()).isTrue();
            assertThat(ch.offer(Rig.frame(3, 3), 0, 24)).isEqualTo(3);

            assertThat(Rig.await(Duration.ofSeconds(10), () -> port.acknowledged() == 3)).isTrue();
            assertThat(lengths).as("what the kernel read: seqlink::device::abandoned(c, 2) holds")
                    .containsEntry(1L, 24L).containsEntry(2L, (long) SlotHeader.PADDING_LENGTH).containsEntry(3L, 24L);
            assertThat(Rig.await(Duration.ofSeconds(10), () -> port.snapshot().paddingSkipped() == 1)).isTrue();
            assertThat(port.snapshot().delivered()).isEqualTo(2);
        }
    }

    @Test
    void paddingIsNeverDeadLettered() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("padding-dead-letters", 0, 1).build());
            List<Long> deadLettered = new CopyOnWriteArrayList<>();
            ConsumerPort port = ch.consumer(1).retryPolicy(new RetryPolicy(2, Duration.ZERO, 1.0, Duration.ofMillis(1)))
                    .errorHandler((frame, cause) -> deadLettered.add(frame.sequence()))
                    .subscribeBatches((FrameBatchHandler) batch -> {
                        throw new IllegalStateException("every batch fails");
                    });
            assertThat(ch.offer(Rig.frame(1, 1), 0, 24)).isEqualTo(1);
            assertThat(ch.tryClaim()).isEqualTo(2);
            assertThat(ch.abandon()).isTrue();
            assertThat(ch.offer(Rig.frame(3, 3), 0, 24)).isEqualTo(3);
            rt.start(); // one round of all three

            assertThat(Rig.await(Duration.ofSeconds(10), () -> port.acknowledged() == 3)).isTrue();
            assertThat(deadLettered).containsExactly(1L, 3L);
            assertThat(Rig.await(Duration.ofSeconds(10), () -> port.snapshot().paddingSkipped() == 1)).isTrue();
            assertThat(port.snapshot().deadLettered()).isEqualTo(2);
        }
    }

    @Test
    void framesOtherThreadsCommittedBehindAClaimGoOutWhenItIsGivenBack() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("behind", 0, 1).maxPublishBatch(4).build());
            List<Long> got = new CopyOnWriteArrayList<>();
            ch.consumer(1).subscribe(f -> got.add(f.sequence()));
            rt.start();

            CountDownLatch claimed = new CountDownLatch(1);
            CountDownLatch giveBack = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                assertThat(ch.tryClaim()).isEqualTo(1);
                claimed.countDown();
                try {
                    giveBack.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                assertThat(ch.abandon()).isTrue();
            }, "holder");
            holder.start();
            assertThat(claimed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ch.offer(Rig.frame(2, 2), 0, 24)).isEqualTo(2);
            assertThat(ch.offer(Rig.frame(3, 3), 0, 24)).isEqualTo(3);
            ChannelSnapshot.OpenClaim open = ch.snapshot().openClaim();
            assertThat(open).isNotNull();
            assertThat(open.sequence()).isEqualTo(1);
            assertThat(open.owner()).isEqualTo("holder");
            assertThat(open.ownerAlive()).isTrue();
            assertThat(ch.snapshot().published()).as("held behind the open claim").isZero();

            giveBack.countDown();
            holder.join(10_000);
            assertThat(Rig.await(Duration.ofSeconds(10), () -> got.size() == 2)).isTrue();
            assertThat(got).containsExactly(2L, 3L);
            assertThat(ch.snapshot().openClaim()).isNull();
        }
    }

    @Test
    void aClaimGivenBackWhileTheChannelDrainsIsNeitherUnpublishedNorUndelivered() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("abandon-while-draining", 0, 1).build());
            ch.consumer(1).subscribe(f -> { });
            rt.start();
            assertThat(ch.offer(Rig.frame(1, 1), 0, 24)).isEqualTo(1);
            assertThat(ch.tryClaim()).isEqualTo(2);

            CompletableFuture<DrainReport> drain = CompletableFuture.supplyAsync(() -> ch.drainAndClose(Duration.ofSeconds(10)));
            assertThat(Rig.await(Duration.ofMillis(200), drain::isDone)).as("the drain waits for the claim").isFalse();
            assertThat(ch.abandon()).isTrue();
            DrainReport report = drain.get(10, TimeUnit.SECONDS);
            assertThat(report.clean()).as("%s", report).isTrue();
            assertThat(report.unpublished()).isZero();
            assertThat(report.published()).as("frame 1 and the padding the drain published for the claim given back").isEqualTo(2);
        }
    }

    @Test
    void aDrainCountsPaddingNeitherDeliveredNorUndelivered() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("drain-padding", 0, 1).build());
            CountDownLatch never = new CountDownLatch(1);
            AtomicLong handed = new AtomicLong();
            ch.consumer(1).subscribe(f -> {
                handed.incrementAndGet();
                never.await(); // the first frame blocks its listener until the test ends
            });
            assertThat(ch.tryClaim()).isEqualTo(1);
            assertThat(ch.abandon()).isTrue();
            for (int i = 2; i <= 4; i++) {
                assertThat(ch.offer(Rig.frame(i, i), 0, 24)).isEqualTo(i);
            }
            assertThat(ch.tryClaim()).isEqualTo(5);
            assertThat(ch.abandon()).isTrue();
            rt.start();
            assertThat(Rig.await(Duration.ofSeconds(10), () -> handed.get() == 1)).isTrue();

            DrainReport report = ch.drainAndClose(Duration.ofMillis(300));
            never.countDown();
            assertThat(report.published()).isEqualTo(5);
            assertThat(report.undelivered()).as("frames 3 and 4: frame 2 was handed, 1 and 5 are padding")
                    .containsEntry(1, 2L);
            assertThat(report.unpublished()).isZero();
        }
    }

    /** A device listener whose kernel records each frame's length word as it reads it in the round's frame ring. */
    static final class LengthRecorder implements DeviceFrameHandler {
        private final KernelModule module;
        private KernelCall read;

        LengthRecorder(Map<Long, Long> lengths) {
            this.module = KernelModule.builder("lengths", KernelImage.ofResource("no/such/image.fatbin")).emulated("read", call -> {
                ByteBuffer ring = call.memory(0);
                lengths.put(call.u64(1), ring.getLong(call.offset(0) + SlotHeader.LENGTH));
            }).build();
        }

        @Override
        public void onFrames(DeviceFrames frames) {
            if (read == null) {
                read = frames.stream().bindKernel(module, "read", KernelParam.POINTER, KernelParam.U64);
            }
            for (long s = frames.first(); s <= frames.last(); s++) {
                read.pointer(0, frames.memory(), frames.headerOffset(s)).u64(1, s).launch(1, 1);
            }
        }
    }
}
