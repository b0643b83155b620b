package io.seqlink.bench;

import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.PatternKernels;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.ReadMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The sample-like pipeline, expand -> publish -> infer + checksum -> ack (the tools' own workload,
 * {@link PipelineKernels}: the shape of the sample's normalise -> publish -> matvec, in integer arithmetic),
 * run three ways over the same kernels, memory and streams' devices:
 * <ul>
 *   <li>{@code compute-only}: the producer's and the consumer's kernels enqueued flat out on two
 *       streams with no synchronisation at all (the frames race; only the time counts): the floor;</li>
 *   <li>{@code compute-paced}: the same with the producer paced to one frame per compute-only frame time, as
 *       the slowest stage paces any pipeline (the channel's backpressure paces its producer so): the paced
 *       floor. On one GPU the producer's kernels then run beside the consumer's all along instead of all at
 *       the start, which by itself costs the consumer time (measured on an H200: about 50 µs a frame at the
 *       default workload), so the channel's own share is its time over this floor;</li>
 *   <li>{@code channel}: the same work handed over by a seqlink channel (lossless);</li>
 *   <li>{@code blocking}: handed over by synchronising the producer's stream before each consume,
 *       the lock-step way a pipeline without a channel is often written;</li>
 *   <li>{@code compute+steps}: compute-only with an empty kernel where each channel step runs: what the steps
 *       cost on the device alone.</li>
 * </ul>
 * The share of a variant's time spent synchronising is {@code 1 - compute / variant}, over each floor. Each variant
 * runs {@link #REPEATS} times, interleaved, and the fastest counts (drift hits all alike).
 */
final class PipelineBench {

    static final int REPEATS = 3;
    private static final long PIXEL_SEED = 3;

    private final BenchEnvironment env;
    private final int pixels;
    private final int rows;
    private final long frameBytes;
    private final ReadMode readMode;

    PipelineBench(BenchEnvironment env) {
        this.env = env;
        this.pixels = env.options().pipelinePixels();
        this.rows = env.options().pipelineRows();
        this.frameBytes = 4L * pixels;
        this.readMode = env.options().pipelineReadMode();
    }

    List<Results.PipelineRow> run() {
        int frames = env.options().pipelineFrames();
        try (Rig rig = new Rig()) {
            long expected = rig.expectedChecksum();
            rig.channelRun(Math.max(10, frames / 10)); // warm-up: JIT, module loads
            double[] best = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
            long roundsOfBest = 0;
            for (int r = 0; r < REPEATS; r++) {
                best[0] = Math.min(best[0], rig.computeOnlyRun(frames, false, 0));
                best[1] = Math.min(best[1], rig.computeOnlyRun(frames, false, (long) (best[0] / frames)));
                best[4] = Math.min(best[4], rig.computeOnlyRun(frames, true, 0));
                best[3] = Math.min(best[3], rig.blockingRun(frames));
                long rounds0 = rig.port.snapshot().rounds();
                double channel = rig.channelRun(frames); // last, so its results are the ones checked
                if (channel < best[2]) {
                    best[2] = channel;
                    roundsOfBest = rig.port.snapshot().rounds() - rounds0;
                }
            }
            long corrupt = rig.corruptResults(expected);
            String what = frames + " frames of " + pixels + " px (" + Units.bytes(frameBytes) + " of 32-bit words), integer matvec "
                    + rows + "x" + pixels + ", read mode " + readMode.name().toLowerCase(java.util.Locale.ROOT);
            List<Results.PipelineRow> rows = new ArrayList<>();
            rows.add(row("compute-only", "kernels only, no hand-off (floor); " + what, frames, best[0], best[0], best[1], 0, 0));
            rows.add(row("compute-paced", "the same, the producer paced to one frame per compute-only frame time, as a pipeline's "
                    + "slowest stage paces it (the paced floor)", frames, best[1], best[0], best[1], 0, 0));
            rows.add(row("channel", "seqlink channel hand-off, producer and consumer threads", frames, best[2], best[0], best[1],
                    corrupt, roundsOfBest));
            rows.add(row("blocking", "stream synchronize before each consume, one thread", frames, best[3], best[0], best[1], 0, 0));
            rows.add(row("compute+steps", "compute-only with an empty one-thread kernel where each channel step runs (publish; "
                    + "consume, ack): the steps' device-side cost without the host", frames, best[4], best[0], best[1], 0, 0));
            return rows;
        }
    }

    /**
     * A variant's row: its share of time and µs per frame over the floor ({@code floorNanos}) and over the paced floor;
     * {@code rounds}: the consume rounds the channel's frames took (0 for the variants without a channel).
     */
    private static Results.PipelineRow row(String variant, String description, int frames, double nanos, double floorNanos,
            double pacedNanos, long corrupt, long rounds) {
        return new Results.PipelineRow(variant, description, frames, nanos / 1e9, nanos / 1e3 / frames,
                Math.max(0, 1 - floorNanos / nanos), (nanos - floorNanos) / 1e3 / frames,
                Math.max(0, 1 - pacedNanos / nanos), (nanos - pacedNanos) / 1e3 / frames, corrupt, rounds);
    }

    /** Weight {@code i}: a deterministic 32-bit word. */
    static int weight(int i) {
        return (int) FramePattern.mix(i);
    }

    /** The consumer's device work per frame: y = W x, then the checksum of y. */
    private final class Listener implements DeviceFrameHandler {
        private final DeviceBuffer weights;
        private final DeviceBuffer y;
        private final MappedBuffer sums;

        Listener(DeviceBuffer weights, DeviceBuffer y, MappedBuffer sums) {
            this.weights = weights;
            this.y = y;
            this.sums = sums;
        }

        @Override
        public void onFrames(DeviceFrames frames) {
            PipelineKernels work = BenchWork.pipeline(frames.stream());
            PatternKernels pattern = BenchWork.on(frames.stream());
            for (long s = frames.first(); s <= frames.last(); s++) {
                work.infer(weights, 0, frames.memory(), frames.payloadOffset(s), y, 0, rows, pixels);
                pattern.checksum(y, 0, 8L * rows, sums, 8 * (s % ChecksumListener.RESULT_WORDS));
            }
        }
    }

    /** Memory, streams and the channel of the three variants. */
    private final class Rig implements AutoCloseable {
        final Backend backend = env.backend();
        final int p = env.producer();
        final int c = env.consumer();
        final int slots = Math.min(16, env.slotsFor(frameBytes));
        final List<AutoCloseable> owned = new ArrayList<>();
        final DeviceBuffer source;
        final DeviceBuffer weights;
        final DeviceBuffer y;
        final DeviceBuffer plainRing;
        final @Nullable DeviceBuffer localRing;
        final MappedBuffer sums;
        final DeviceStream ps;
        final DeviceStream cs;
        /** The consumer stream's kernels outside a channel, bound before any timed run. */
        final PipelineKernels consumerWork;
        final PatternKernels consumerPattern;
        /** Empty one-thread kernels standing in for the channel's steps ({@code compute+steps}). */
        final KernelCall producerStep;
        final KernelCall consumerStep;
        final PublishChannel channel;
        final ConsumerPort port;
        long channelSent;

        Rig() {
            if (p != c) {
                backend.enablePeerAccess(c, p);
            }
            source = own(backend.device(p).allocate(Alloc.lines(pixels)));
            weights = own(backend.device(c).allocate(Alloc.lines(4L * rows * pixels)));
            y = own(backend.device(c).allocate(Alloc.lines(8L * rows)));
            plainRing = own(backend.device(p).allocate(Alloc.lines(slots * frameBytes)));
            localRing = readMode == ReadMode.COPY ? own(backend.device(c).allocate(Alloc.lines(slots * frameBytes))) : null;
            sums = own(backend.device(c).allocateMapped(8L * ChecksumListener.RESULT_WORDS));
            ps = own(backend.device(p).newStream("bench-pipeline-producer"));
            cs = own(backend.device(c).newStream("bench-pipeline-consumer"));
            consumerWork = BenchWork.pipeline(cs);
            consumerPattern = BenchWork.on(cs);
            producerStep = ps.bindKernel(BenchWork.MODULE, BenchWork.NOOP);
            consumerStep = cs.bindKernel(BenchWork.MODULE, BenchWork.NOOP);
            BenchWork.on(ps).fill(source, 0, pixels, PIXEL_SEED);
            uploadWeights();
            ps.synchronize();
            channel = env.openChannel("pipeline", List.of(c), frameBytes, slots, readMode);
            port = channel.consumer(c);
            port.subscribeDevice(new Listener(weights, y, sums));
        }

        private <T extends AutoCloseable> T own(T r) {
            owned.add(r);
            return r;
        }

        private void uploadWeights() {
            long bytes = 4L * rows * pixels;
            try (MappedBuffer staging = backend.device(c).allocateMapped(Alloc.lines(bytes))) {
                putWeights(staging.byteBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN));
                cs.copy(staging, 0, weights, 0, bytes);
                cs.synchronize();
            }
        }

        /** The weight matrix, {@code rows x pixels} 32-bit words, into {@code b} (little-endian). */
        private void putWeights(ByteBuffer b) {
            for (int i = 0; i < rows * pixels; i++) {
                b.putInt(4 * i, weight(i));
            }
        }

        /** The checksum of y computed on the host with the kernels' arithmetic (their Java twins'). */
        long expectedChecksum() {
            ByteBuffer px = ByteBuffer.allocate(pixels).order(ByteOrder.LITTLE_ENDIAN);
            FramePattern.fill(px, 0, pixels, PIXEL_SEED);
            ByteBuffer x = ByteBuffer.allocate(4 * pixels).order(ByteOrder.LITTLE_ENDIAN);
            PipelineKernels.expand(px, 0, x, 0, pixels);
            ByteBuffer w = ByteBuffer.allocate(4 * rows * pixels).order(ByteOrder.LITTLE_ENDIAN);
            putWeights(w);
            ByteBuffer out = ByteBuffer.allocate(8 * rows).order(ByteOrder.LITTLE_ENDIAN);
            PipelineKernels.infer(w, 0, x, 0, out, 0, rows, pixels);
            return FramePattern.checksum(out, 0, 8 * rows);
        }

        /** Results of the channel's last frames that differ from the host's (call right after a channel run). */
        long corruptResults(long expected) {
            long bad = 0;
            long n = Math.min(channelSent, ChecksumListener.RESULT_WORDS);
            for (long s = channelSent; s > channelSent - n; s--) {
                if (sums.getAcquire(8 * (s % ChecksumListener.RESULT_WORDS)) != expected) {
                    bad++;
                }
            }
            return bad;
        }

        /**
         * The producer's and the consumer's kernels flat out on their streams; with {@code steps}, an empty kernel where
         * each of the channel's steps would run (after each expand; before and after each frame's consumer work); with
         * {@code paceNanos > 0}, the producer enqueues frame {@code i} no earlier than {@code i x paceNanos} into the run.
         */
        double computeOnlyRun(int frames, boolean steps, long paceNanos) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            PipelineKernels pw = BenchWork.pipeline(ps);
            long start = System.nanoTime();
            Thread producer = new Thread(() -> ChannelThroughputBench.guard(failure, () -> {
                for (int i = 0; i < frames; i++) {
                    for (long left; paceNanos > 0 && (left = start + i * paceNanos - System.nanoTime()) > 0; ) {
                        LockSupport.parkNanos(left);
                    }
                    pw.expand(source, 0, plainRing, (i % slots) * frameBytes, pixels);
                    if (steps) {
                        producerStep.launch(1, 1);
                    }
                }
                ps.synchronize();
            }), "bench-pipeline-compute-producer");
            Thread consumer = new Thread(() -> ChannelThroughputBench.guard(failure, () -> {
                for (int i = 0; i < frames; i++) {
                    if (steps) {
                        consumerStep.launch(1, 1);
                    }
                    consumeOne(i);
                    if (steps) {
                        consumerStep.launch(1, 1);
                    }
                }
                cs.synchronize();
            }), "bench-pipeline-compute-consumer");
            long t0 = System.nanoTime();
            producer.start();
            consumer.start();
            ChannelThroughputBench.join(producer);
            ChannelThroughputBench.join(consumer);
            long nanos = System.nanoTime() - t0;
            if (failure.get() != null) {
                throw new IllegalStateException("compute-only run failed: " + failure.get(), failure.get());
            }
            return nanos;
        }

        /** The consumer's work on frame {@code i} outside a channel: (copy,) infer, checksum. */
        private void consumeOne(int i) {
            long offset = (i % slots) * frameBytes;
            Memory x = plainRing;
            if (localRing != null) {
                cs.copy(plainRing, offset, localRing, offset, frameBytes);
                x = localRing;
            }
            consumerWork.infer(weights, 0, x, offset, y, 0, rows, pixels);
            consumerPattern.checksum(y, 0, 8L * rows, sums, 8L * (i % ChecksumListener.RESULT_WORDS));
        }

        double blockingRun(int frames) {
            PipelineKernels pw = BenchWork.pipeline(ps);
            long t0 = System.nanoTime();
            for (int i = 0; i < frames; i++) {
                pw.expand(source, 0, plainRing, (i % slots) * frameBytes, pixels);
                ps.synchronize();
                consumeOne(i);
                cs.synchronize();
            }
            return System.nanoTime() - t0;
        }

        double channelRun(int frames) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long first = channelSent + 1;
            long last = channelSent + frames;
            int batch = channel.spec().maxPublishBatch();
            PipelineKernels pw = BenchWork.pipeline(channel.producerStream());
            Memory ring = channel.ring();
            Thread producer = new Thread(() -> ChannelThroughputBench.guard(failure, () -> {
                for (long s = first; s <= last; s++) {
                    // claim() waits with the channel's back-off (spin, yield, park), as an application's producer
                    // would: a producer spinning for the whole run would steal a core from the consumer's work
                    long seq = channel.claim(Spin.DEFAULT_TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
                    if (seq != s) {
                        throw new IllegalStateException("claim returned " + seq + " for frame " + s + ": " + channel.snapshot());
                    }
                    pw.expand(source, 0, ring, channel.payloadOffset(seq), pixels);
                    channel.commitDevice((int) frameBytes);
                    channel.publish();
                }
            }), "bench-pipeline-producer");
            Thread consumer = new Thread(() -> ChannelThroughputBench.guard(failure,
                    () -> ChannelThroughputBench.pollUntil(port, batch, frames, new Progress("pipeline consumer", failure))),
                    "bench-pipeline-consumer");
            long t0 = System.nanoTime();
            producer.start();
            consumer.start();
            ChannelThroughputBench.join(producer);
            ChannelThroughputBench.join(consumer);
            if (failure.get() != null) {
                throw new IllegalStateException("channel run failed: " + failure.get(), failure.get());
            }
            Spin.awaitAtLeast(port::acknowledged, last, "the pipeline's final ack");
            long nanos = System.nanoTime() - t0;
            channelSent = last;
            return nanos;
        }

        @Override
        public void close() {
            BenchEnvironment.closeQuietly(channel);
            // streams before memory: queued work may still touch it
            ps.close();
            cs.close();
            for (AutoCloseable r : owned) {
                try {
                    r.close();
                } catch (Exception ex) {
                    System.err.println("seqlink-bench: freeing pipeline memory: " + ex);
                }
            }
        }
    }
}
