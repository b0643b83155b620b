package io.seqlink.soak;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.PublishChannel;
import io.seqlink.topology.VerifierSettings;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One soak run: a producer on device 0 publishing checksummed frames of varying length as fast as
 * the channel lets it, consumers on devices 1..N driven by the launcher, listeners that stall at
 * random, and a chaos thread that pauses consumers (and, on the emulated backend, stalls their
 * streams so consume steps run late). At the end everything must be accounted for.
 */
public final class SoakRun {

    private static final Logger log = LoggerFactory.getLogger(SoakRun.class);
    /** The producer gives up when no frame could be claimed for this long: something hangs. */
    private static final long HANG_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final SoakOptions options;
    private final Consumer<String> progress;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong chaosEvents = new AtomicLong();
    private volatile boolean producing = true;

    public SoakRun(SoakOptions options, Consumer<String> progress) {
        this.options = options;
        this.progress = progress;
    }

    public SoakReport run() {
        EmulatedTopology topology = EmulatedTopology.builder(options.consumers() + 1).streamMode(options.streamMode()).build();
        SeqlinkRuntime.Builder builder = SeqlinkRuntime.builder().backend(options.backend()).emulated(topology)
                .drainTimeout(Duration.ofSeconds(30));
        if (options.backend() == io.seqlink.backend.BackendSelection.EMULATED) {
            // the emulated probe measures timing; on a busy CI machine its verdicts wander. Attributes decide.
            builder.verifier(VerifierSettings.defaults().withEnabled(false));
        }
        try (SeqlinkRuntime rt = builder.open()) {
            List<Integer> consumers = consumerDevices(rt.backend().deviceCount());
            ChannelSpec.Builder channelSpec = ChannelSpec.builder("soak").producer(0).consumers(consumers).slots(options.slots())
                    .slotBytes(options.slotBytes()).delivery(options.delivery()).backpressureTimeout(Duration.ofSeconds(1))
                    .stallTimeout(Duration.ofSeconds(30));
            if (options.hostRing()) {
                channelSpec.hostListeners(consumers); // host listeners on every consumer, as below
            }
            ChannelSpec spec = channelSpec.build();
            PublishChannel channel = rt.openChannel(spec);
            List<SoakVerifier> verifiers = new ArrayList<>();
            for (int d : consumers) {
                SoakVerifier v = new SoakVerifier(d, options.slotBytes(), options.stallProbability(), options.seed());
                verifiers.add(v);
                channel.consumer(d).subscribe(v);
            }
            MemorySampler sampler = new MemorySampler(rt.backend(), published::get);
            rt.start();
            Thread chaos = daemon("seqlink-soak-chaos", () -> chaos(rt, channel, consumers));
            Thread sampling = daemon("seqlink-soak-sampler", () -> sample(sampler, verifiers));
            long retainedStart = sampler.retainedHeap();
            sampler.sample();
            long start = System.nanoTime();
            try {
                produce(channel);
            } finally {
                producing = false;
                chaos.interrupt();
                join(chaos);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            boolean drained = rt.launcher().awaitDrained(Duration.ofSeconds(60));
            sampling.interrupt();
            join(sampling);
            sampler.sample();
            long retainedEnd = sampler.retainedHeap();
            List<SoakReport.ConsumerResult> results = new ArrayList<>();
            long total = published.get();
            for (SoakVerifier v : verifiers) {
                ConsumerSnapshot s = channel.consumer(v.device()).snapshot();
                long gaps = v.gaps + (total - v.last);
                long lost = options.delivery() == Delivery.LOSSLESS ? total - v.delivered + v.duplicates
                        : total - v.delivered - s.missed() + v.duplicates;
                results.add(new SoakReport.ConsumerResult(v.device(), v.delivered, Math.max(0, lost), v.duplicates, v.corrupt,
                        s.missed(), gaps, v.stalls));
            }
            return new SoakReport(options, rt.backend().description(), total, seconds, drained, results, sampler.samples(),
                    chaosEvents.get(), retainedStart, retainedEnd);
        }
    }

    /** Devices 1..N; with fewer devices, as many as there are (one device: producer and consumer share it). */
    private List<Integer> consumerDevices(int deviceCount) {
        List<Integer> devices = new ArrayList<>();
        for (int d = 1; d <= options.consumers() && d < deviceCount; d++) {
            devices.add(d);
        }
        if (devices.isEmpty()) {
            devices.add(0);
        }
        if (devices.size() < options.consumers()) {
            log.warn("seqlink soak: {} consumer(s) asked, {} device(s) here: running {} consumer(s) on {}", options.consumers(),
                    deviceCount, devices.size(), devices);
        }
        return devices;
    }

    private void produce(PublishChannel channel) {
        SplittableRandom random = new SplittableRandom(options.seed());
        int maxBatch = channel.spec().maxPublishBatch();
        long deadline = options.duration().isZero() ? Long.MAX_VALUE : System.nanoTime() + options.duration().toNanos();
        long target = options.frames() > 0 ? options.frames() : Long.MAX_VALUE;
        long lastProgress = System.nanoTime();
        long begin = lastProgress;
        double nanosPerFrame = options.maxRate() > 0 ? 1e9 / options.maxRate() : 0;
        long n = 0;
        while (n < target && System.nanoTime() - deadline < 0) {
            if (nanosPerFrame > 0) {
                long due = begin + (long) (n * nanosPerFrame);
                while (System.nanoTime() - due < 0) {
                    Thread.onSpinWait(); // paced: ahead of the rate
                }
            }
            int batch = (int) Math.min(1 + random.nextInt(maxBatch), target - n);
            int committed = 0;
            while (committed < batch) {
                long seq = options.delivery() == Delivery.LOSSLESS ? channel.claim(100, TimeUnit.MILLISECONDS) : channel.tryClaim();
                if (seq == ClaimStatus.BACK_PRESSURED) {
                    if (committed > 0) {
                        break; // publish what we have; the consumers need it to make room
                    }
                    if (System.nanoTime() - lastProgress > HANG_NANOS) {
                        throw new IllegalStateException("soak: no free slot for 60 s: " + channel.snapshot());
                    }
                    Thread.onSpinWait();
                    continue;
                }
                if (seq < 0) {
                    throw new IllegalStateException("soak: claim failed with " + ClaimStatus.describe(seq) + ": " + channel.snapshot());
                }
                ByteBuffer slot = channel.buffer();
                int length = SoakVerifier.lengthOf(seq, options.slotBytes());
                FramePattern.fill(slot, 0, length, SoakVerifier.seedOf(seq));
                channel.commit(length);
                committed++;
            }
            if (committed > 0) {
                n += channel.publish();
                published.set(n);
                lastProgress = System.nanoTime();
            }
        }
    }

    /** Pauses a random consumer, or stalls its stream (emulated), for up to 3 ms, about 1000 times a second at most. */
    private void chaos(SeqlinkRuntime rt, PublishChannel channel, List<Integer> consumers) {
        SplittableRandom random = new SplittableRandom(options.seed() ^ 0xC4A05L);
        double p = Math.min(1.0, options.stallProbability() * 200);
        EmulatedBackend emulated = rt.backendKind() == BackendKind.EMULATED ? (EmulatedBackend) rt.backend() : null;
        while (producing && p > 0) {
            LockSupport.parkNanos(1_000_000);
            if (Thread.interrupted() || !producing) {
                return;
            }
            if (random.nextDouble() >= p) {
                continue;
            }
            int device = consumers.get(random.nextInt(consumers.size()));
            ConsumerPort port = channel.consumer(device);
            // the backend to stall the consumer's stream on (emulated only), or null: pause the port instead
            EmulatedBackend streamStall = emulated != null && device != channel.spec().producer() && random.nextBoolean()
                    ? emulated : null;
            chaosEvents.incrementAndGet();
            if (streamStall != null) {
                streamStall.faults().stallStreams(device, "consumer");
            } else {
                port.pause();
            }
            LockSupport.parkNanos(random.nextLong(3_000_000));
            if (streamStall != null) {
                streamStall.faults().resumeDevice(device);
            } else {
                port.resume();
            }
        }
    }

    private void sample(MemorySampler sampler, List<SoakVerifier> verifiers) {
        long period = options.effectiveSampleInterval().toNanos();
        while (!Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(period);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            MemorySampler.Sample s = sampler.sample();
            StringBuilder line = new StringBuilder(String.format(java.util.Locale.ROOT,
                    "[%6.1f s] published %,d  heap %,d KiB (after GC %,d KiB)  direct %,d KiB  device %,d KiB  delivered",
                    s.elapsedMillis() / 1000.0, s.published(), s.heapUsed() >> 10, s.heapAfterGc() >> 10, s.directBytes() >> 10,
                    s.deviceUsed() >> 10));
            for (SoakVerifier v : verifiers) {
                line.append(' ').append(v.device()).append('=').append(v.delivered);
            }
            progress.accept(line.toString());
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void join(Thread t) {
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
