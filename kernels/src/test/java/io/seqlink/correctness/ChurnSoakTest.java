package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelInvocation;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameBatchHandler;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.SlotHeader;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Every concurrency guarantee of a channel, at once, under load, checked frame by frame: several producer
 * threads (offer, and claim → write → commit → publish) share one lossless channel to two consumers;
 * one consumer's listener is replaced at random (per frame and per batch), the other is paused and
 * resumed at random; listeners fail at random and are retried; meanwhile other channels are opened,
 * used and closed on the same devices. Every frame carries its id and a checksummed pattern; every
 * consumer must get every frame exactly once, intact: 0 lost, 0 duplicated, 0 corrupt. A third consumer has a device
 * listener that takes armed rounds (its kernels count what the descriptor says was taken); a fourth has the same
 * listener acknowledging in its kernel (no ack step: a wrong acknowledgement would let the producers overwrite
 * frames it has not read, which its checksums would see). Consumers 1 to 3 are host-pushed (the producer pushes their
 * frames into host memory, read there in place by host listeners); consumer 3's listener is now and then a host listener
 * for a while, so the pushed path takes over from a device listener's stream-written acks and hands back to it; every
 * other churned channel is host-pushed too. Consumer 1's listener and consumer 3's device listener are also
 * removed for a while and subscribed again, their rounds armed ahead of the frame released by each removal. The
 * step-by-step producers give back a claim now and then instead of committing it ({@code abandon()}, then the same
 * frame again), and producer threads die holding a claim they never commit: both are published as padding, which no
 * listener may see (a padding frame would fail the checks) and every consumer must count as skipped, once each.
 *
 * <p>10^6 frames by default (about 20 s on two busy cores); {@code -Dseqlink-build.soak.frames=N} runs more.
 */
class ChurnSoakTest {

    private static final int FRAMES = Integer.getInteger("seqlink-build.soak.frames", 1_000_000);
    private static final int PRODUCERS = 3;
    private static final int MAX_LENGTH = 200;
    private static final double FAILURE_RATE = 1e-4;
    private static final double ABANDON_RATE = 1e-3;
    /** Doomed producer threads start until this many ids are handed out, so the live producers give back the last one's claim. */
    private static final int DEATHS_UNTIL = FRAMES * 9 / 10;

    /** Counts every frame one consumer handled, by id; a frame that fails its checks counts as corrupt. */
    static final class Verifier {
        final AtomicIntegerArray seen = new AtomicIntegerArray(FRAMES);
        final AtomicLong corrupt = new AtomicLong();
        final AtomicLong failuresInjected = new AtomicLong();

        /** Checks and counts a frame; throws (once per frame, at random) to exercise the retries. */
        void take(Frame frame, boolean mayFail) {
            if (mayFail && frame.attempt() == 1 && ThreadLocalRandom.current().nextDouble() < FAILURE_RATE) {
                failuresInjected.incrementAndGet();
                throw new IllegalStateException("injected listener failure at frame " + frame.sequence());
            }
            takePayload(frame.payload(), 0, frame.length());
        }

        /** Checks and counts the frame at {@code index} of {@code payload} ({@code length} bytes). */
        void takePayload(ByteBuffer payload, int index, int length) {
            long id = length >= 8 ? payload.getLong(index) : -1;
            if (id < 0 || id >= FRAMES || !intact(payload, index, length, id)) {
                corrupt.incrementAndGet();
                return;
            }
            seen.incrementAndGet((int) id);
        }

        /** The batch fails before any frame is counted, so its retry counts each once. */
        void takeAll(List<Frame> frames) {
            if (!frames.isEmpty() && frames.get(0).attempt() == 1 && ThreadLocalRandom.current().nextDouble() < FAILURE_RATE * 10) {
                failuresInjected.incrementAndGet();
                throw new IllegalStateException("injected batch failure");
            }
            for (Frame f : frames) {
                take(f, false);
            }
        }

        String report() {
            long lost = 0;
            long duplicated = 0;
            for (int i = 0; i < FRAMES; i++) {
                int n = seen.get(i);
                lost += n == 0 ? 1 : 0;
                duplicated += Math.max(0, n - 1);
            }
            return "lost " + lost + ", duplicated " + duplicated + ", corrupt " + corrupt.get();
        }
    }

    static int lengthOf(long id) {
        return 8 + (int) Long.remainderUnsigned(FramePattern.mix(id), MAX_LENGTH - 8);
    }

    static void write(ByteBuffer slot, long id) {
        int length = lengthOf(id);
        slot.putLong(0, id);
        FramePattern.fill(slot, 8, length - 8, seed(id));
    }

    static boolean intact(ByteBuffer payload, int index, int length, long id) {
        return length == lengthOf(id)
                && FramePattern.checksum(payload, index + 8, length - 8) == FramePattern.expectedChecksum(seed(id), length - 8);
    }

    /**
     * Consumer 3's device listener, which takes armed rounds: a kernel per frame (Java twin only: this soak runs
     * emulated) that reads the round's descriptor in stream order, and checks and counts the frame only when the
     * consume step took it; it fails at random before enqueuing anything, so armed and ordinary rounds alike are
     * retried.
     */
    static final class ArmedDeviceListener implements DeviceFrameHandler {
        private final KernelModule module;
        private final Verifier verifier;
        private final boolean acksInKernel;
        private KernelCall take;
        private KernelCall takeAcking;

        ArmedDeviceListener(Verifier verifier, boolean acksInKernel) {
            this.verifier = verifier;
            this.acksInKernel = acksInKernel;
            this.module = KernelModule.builder("soak", KernelImage.ofResource("no/such/image.fatbin")).emulated("take", this::take)
                    .emulated("take_acking", call -> {
                        take(call);
                        call.acknowledgeTaken(0, 3);
                    }).build();
        }

        private void take(KernelInvocation call) {
            ByteBuffer descriptor = call.memory(0);
            long s = call.u64(2);
            if (s < descriptor.getLong(call.offset(0) + ConsumerBlock.VALID_FROM)
                    || s > descriptor.getLong(call.offset(0) + ConsumerBlock.READY_TO)) {
                return; // not taken by this round's consume step (an armed round released or woken early)
            }
            ByteBuffer ring = call.memory(1);
            int header = call.offset(1);
            long length = ring.getLong(header + SlotHeader.LENGTH);
            if (length < 0) {
                return; // seqlink::device::abandoned(c, s): padding, a claim given back; skipped
            }
            verifier.takePayload(ring, header + SlotHeader.BYTES, (int) length);
        }

        @Override
        public boolean acceptsArmedRounds() {
            return true;
        }

        @Override
        public boolean acknowledgesInKernel() {
            return acksInKernel;
        }

        @Override
        public void onFrames(DeviceFrames frames) {
            if (ThreadLocalRandom.current().nextDouble() < FAILURE_RATE) {
                verifier.failuresInjected.incrementAndGet();
                throw new IllegalStateException("injected device listener failure at frame " + frames.first());
            }
            if (take == null) {
                take = frames.stream().bindKernel(module, "take", KernelParam.POINTER, KernelParam.POINTER, KernelParam.U64);
                takeAcking = frames.stream().bindKernel(module, "take_acking", KernelParam.POINTER, KernelParam.POINTER,
                        KernelParam.U64, KernelParam.POINTER);
            }
            for (long s = frames.first(); s <= frames.last(); s++) {
                KernelCall k = acksInKernel && s == frames.last() ? takeAcking.pointer(3, frames.acknowledgement(), 0) : take;
                k.pointer(0, frames.descriptor(), 0).pointer(1, frames.memory(), frames.headerOffset(s)).u64(2, s).launch(1, 1);
            }
        }
    }

    private static long seed(long id) {
        return id * FramePattern.GOLDEN + 3;
    }

    @Test
    void producersListenersPausesFailuresAndChannelChurnTogetherLoseNothing() throws Exception {
        EmulatedTopology topology = EmulatedTopology.builder(5).streamMode(EmulatedTopology.StreamMode.THREADED).build();
        RetryPolicy quickRetry = new RetryPolicy(5, Duration.ZERO, 1.0, Duration.ofMillis(1));
        try (SeqlinkRuntime rt = Rig.runtime(topology).drainTimeout(Duration.ofSeconds(30)).open()) {
            // consumers 1 to 3 host-pushed (the producer's publish step pushes their frames into host memory); consumer 3's
            // listener flips between device and host kinds, so the push keeps landing while a device listener reads
            PublishChannel ch = rt.openChannel(Rig.channel("soak", 0, 1, 2, 3, 4).slots(256).slotBytes(MAX_LENGTH).maxPublishBatch(16)
                    .hostListeners(1, 2, 3).build());
            Verifier replaced = new Verifier();
            Verifier paused = new Verifier();
            Verifier device = new Verifier();
            Verifier acking = new Verifier();
            ConsumerPort flipping = ch.consumer(1).retryPolicy(quickRetry).subscribe(frame -> replaced.take(frame, true));
            ConsumerPort pausing = ch.consumer(2).retryPolicy(quickRetry).subscribe(frame -> paused.take(frame, true));
            ArmedDeviceListener[] deviceListeners = {new ArmedDeviceListener(device, false), new ArmedDeviceListener(device, false)};
            ConsumerPort armedDevice = ch.consumer(3).retryPolicy(quickRetry).subscribeDevice(deviceListeners[0]);
            ConsumerPort ackingDevice = ch.consumer(4).retryPolicy(quickRetry).subscribeDevice(new ArmedDeviceListener(acking, true));
            rt.start();

            AtomicBoolean producing = new AtomicBoolean(true);
            AtomicReference<Throwable> error = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            AtomicLong nextId = new AtomicLong();
            AtomicLong abandoned = new AtomicLong();
            for (int p = 0; p < PRODUCERS; p++) {
                boolean stepByStep = p % 2 == 1;
                threads.add(thread("producer-" + p, error, () -> produce(ch, nextId, stepByStep, abandoned)));
            }
            AtomicLong removals = new AtomicLong();
            AtomicLong deaths = new AtomicLong();
            threads.add(thread("doomed-producers", error, () -> {
                SplittableRandom random = new SplittableRandom(3);
                while (nextId.get() < DEATHS_UNTIL) {
                    Thread doomed = new Thread(() -> {
                        long seq = ch.claim(1, TimeUnit.SECONDS);
                        if (seq > 0) {
                            ch.buffer().putLong(0, -1); // half a frame, never committed: the thread dies holding the claim
                            deaths.incrementAndGet();
                        }
                    }, "doomed-producer");
                    doomed.start();
                    try {
                        doomed.join();
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    LockSupport.parkNanos(random.nextLong(1_000_000, 10_000_000));
                }
            }));
            threads.add(thread("listener-replacer", error, () -> {
                SplittableRandom random = new SplittableRandom(1);
                while (producing.get()) {
                    if (random.nextInt(4) == 0) { // removed for a while: its armed round is released, nothing is delivered
                        flipping.unsubscribe();
                        removals.incrementAndGet();
                        LockSupport.parkNanos(random.nextLong(100_000, 2_000_000));
                    }
                    if (random.nextBoolean()) {
                        flipping.subscribeBatches((FrameBatchHandler) replaced::takeAll);
                    } else {
                        flipping.subscribe((FrameHandler) frame -> replaced.take(frame, true));
                    }
                    LockSupport.parkNanos(random.nextLong(100_000, 5_000_000));
                }
            }));
            threads.add(thread("device-listener-replacer", error, () -> {
                SplittableRandom random = new SplittableRandom(3);
                for (int i = 0; producing.get(); i++) {
                    LockSupport.parkNanos(random.nextLong(1_000_000, 10_000_000));
                    armedDevice.unsubscribe(); // its round armed ahead of the frame is released before this returns
                    removals.incrementAndGet();
                    LockSupport.parkNanos(random.nextLong(100_000, 2_000_000));
                    if (i % 3 == 2) { // a host listener for a while: pushed frames read in place, after the device listener's acks
                        armedDevice.subscribe((FrameHandler) frame -> device.take(frame, true));
                        LockSupport.parkNanos(random.nextLong(1_000_000, 5_000_000));
                    }
                    armedDevice.subscribeDevice(deviceListeners[(i + 1) & 1]);
                }
                armedDevice.subscribeDevice(deviceListeners[0]);
            }));
            AtomicLong pauses = new AtomicLong();
            threads.add(thread("pauser", error, () -> {
                SplittableRandom random = new SplittableRandom(2);
                while (producing.get()) {
                    if (pausing.pause()) {
                        pauses.incrementAndGet();
                    }
                    LockSupport.parkNanos(random.nextLong(100_000, 3_000_000));
                    pausing.resume();
                    LockSupport.parkNanos(random.nextLong(1_000_000, 10_000_000));
                }
                pausing.resume();
            }));
            AtomicLong churned = new AtomicLong();
            threads.add(thread("channel-churn", error, () -> churn(rt, producing, churned)));

            for (Thread t : threads.subList(0, PRODUCERS)) {
                t.join();
            }
            producing.set(false);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
            }
            assertThat(error.get()).as("a soak thread failed").isNull();
            long sequences = ch.snapshot().claimed(); // frames and padding: every claim was committed or given back
            assertThat(Rig.await(Duration.ofSeconds(60), () -> ch.snapshot().published() == sequences))
                    .as("every claim published: %s", ch.snapshot()).isTrue();
            assertThat(Rig.await(Duration.ofSeconds(60), () -> flipping.acknowledged() >= sequences
                    && pausing.acknowledged() >= sequences && armedDevice.acknowledged() >= sequences
                    && ackingDevice.acknowledged() >= sequences))
                    .as("the consumers drained: acknowledged %d, %d, %d and %d of %d", flipping.acknowledged(), pausing.acknowledged(),
                            armedDevice.acknowledged(), ackingDevice.acknowledged(), sequences)
                    .isTrue();
            long padding = abandoned.get() + deaths.get();
            List<ConsumerPort> ports = List.of(flipping, pausing, armedDevice, ackingDevice);
            assertThat(Rig.await(Duration.ofSeconds(30), () -> ports.stream().allMatch(p -> p.snapshot().paddingSkipped() == padding)))
                    .as("each consumer skipped each padding frame once: %d (%d abandoned, %d threads died holding a claim); %s", padding,
                            abandoned.get(), deaths.get(), ch.snapshot())
                    .isTrue();
            System.out.printf("churn soak: %d frames x 4 consumers; listener failures injected %d + %d + %d + %d; pauses %d; channels "
                    + "opened and closed %d; listener removals %d; claims abandoned %d, producer threads died holding a claim %d; "
                    + "consumer 1 %s; consumer 2 %s; consumer 3 %s (%s); consumer 4 %s (%s)%n", FRAMES,
                    replaced.failuresInjected.get(), paused.failuresInjected.get(), device.failuresInjected.get(),
                    acking.failuresInjected.get(), pauses.get(), churned.get(), removals.get(), abandoned.get(), deaths.get(),
                    replaced.report(), paused.report(), device.report(), armedDevice.snapshot(), acking.report(),
                    ackingDevice.snapshot());

            assertThat(replaced.report()).as("consumer 1 (listener replaced at random)").isEqualTo("lost 0, duplicated 0, corrupt 0");
            assertThat(paused.report()).as("consumer 2 (paused at random)").isEqualTo("lost 0, duplicated 0, corrupt 0");
            assertThat(device.report()).as("consumer 3 (device listener, armed rounds)").isEqualTo("lost 0, duplicated 0, corrupt 0");
            assertThat(acking.report()).as("consumer 4 (device listener acknowledging in its kernel)")
                    .isEqualTo("lost 0, duplicated 0, corrupt 0");
            assertThat(replaced.failuresInjected.get() + paused.failuresInjected.get()).as("failures were injected").isPositive();
            assertThat(pauses.get()).as("pauses").isPositive();
            assertThat(removals.get()).as("listeners removed and subscribed again").isPositive();
            assertThat(churned.get()).as("channels opened and closed meanwhile").isPositive();
            assertThat(ch.snapshot().consumers()).allSatisfy(c -> assertThat(c.deadLettered()).isZero());
            assertThat(ch.snapshot().claimsAbandoned()).as("claims given back").isEqualTo(padding);
            assertThat(abandoned.get()).as("claims abandoned").isPositive();
            assertThat(deaths.get()).as("producer threads that died holding a claim").isPositive();
            assertThat(ch.state()).isEqualTo(ChannelState.OPEN);
        }
    }

    /**
     * Takes ids until every frame is handed out; half the producers go claim, write, commit, publish, and
     * now and then give the claim back instead of committing it (then send the frame with the next claim).
     */
    private static void produce(PublishChannel ch, AtomicLong nextId, boolean stepByStep, AtomicLong abandoned) {
        SplittableRandom random = new SplittableRandom(Thread.currentThread().getName().hashCode());
        for (long id; (id = nextId.getAndIncrement()) < FRAMES; ) {
            long seq;
            do {
                if (stepByStep) {
                    seq = ch.claim(1, TimeUnit.SECONDS);
                    if (seq > 0) {
                        write(ch.buffer(), id);
                        if (random.nextDouble() < ABANDON_RATE) {
                            if (!ch.abandon()) {
                                throw new IllegalStateException("abandon() found no claim after claim() returned " + seq);
                            }
                            abandoned.incrementAndGet();
                            seq = -1; // the same frame again
                            continue;
                        }
                        ch.commit(lengthOf(id));
                        ch.publish();
                    }
                } else {
                    ByteBuffer frame = FRAME.get();
                    write(frame.clear(), id);
                    seq = ch.offer(frame.limit(lengthOf(id)));
                }
                if (seq < 0 && seq != ClaimStatus.BACK_PRESSURED) {
                    throw new IllegalStateException("claim failed: " + ClaimStatus.describe(seq)); // never BATCH_FULL: each publishes
                }
                if (seq < 0) {
                    Thread.yield();
                }
            } while (seq < 0);
        }
    }

    private static final ThreadLocal<ByteBuffer> FRAME = ThreadLocal.withInitial(
            () -> ByteBuffer.allocate(MAX_LENGTH).order(java.nio.ByteOrder.LITTLE_ENDIAN));

    /** Opens a short-lived channel on the same devices, sends a few hundred frames through it, closes it: over and over. */
    private static void churn(SeqlinkRuntime rt, AtomicBoolean running, AtomicLong churned) {
        long round = 0;
        while (running.get()) {
            int consumer = 1 + (int) (round % 3);
            ChannelSpec.Builder spec = Rig.channel("churn-" + round, 0, consumer).slots(16).slotBytes(MAX_LENGTH);
            PublishChannel ch = rt.openChannel((round % 2 == 0 ? spec.hostListeners(consumer) : spec).build());
            AtomicLong got = new AtomicLong();
            AtomicLong bad = new AtomicLong();
            ch.consumer(consumer).subscribe(frame -> {
                long id = frame.payload().getLong(0);
                if (!intact(frame.payload(), 0, frame.length(), id)) {
                    bad.incrementAndGet();
                }
                got.incrementAndGet();
            });
            int frames = 200;
            ByteBuffer frame = ByteBuffer.allocate(MAX_LENGTH).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (long id = 0; id < frames; ) {
                write(frame.clear(), id);
                if (ch.offer(frame.limit(lengthOf(id))) > 0) {
                    id++;
                } else {
                    Thread.yield();
                }
            }
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(30));
            if (!report.clean() || got.get() != frames || bad.get() != 0) {
                throw new IllegalStateException("churn channel " + round + ": " + report + ", got " + got.get() + ", bad " + bad.get());
            }
            churned.incrementAndGet();
            round++;
        }
    }

    private static Thread thread(String name, AtomicReference<Throwable> error, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable ex) {
                error.compareAndSet(null, ex);
            }
        }, name);
        t.start();
        return t;
    }
}
