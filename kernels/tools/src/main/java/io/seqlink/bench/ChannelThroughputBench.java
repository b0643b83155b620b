package io.seqlink.bench;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PatternKernels;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.ReadMode;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Java channel path pipelined: a producer thread claims, fills (kernel), commits and publishes
 * frame after frame, held back only by lossless backpressure; a consumer thread polls the port, taking
 * up to the publish batch per round, with the checksum listener. Throughput is payload bytes over the
 * time until the last frame is acknowledged. The comparator's {@code throughput} mode is the C++ twin.
 */
final class ChannelThroughputBench {

    private final BenchEnvironment env;

    ChannelThroughputBench(BenchEnvironment env) {
        this.env = env;
    }

    Results.ThroughputRow run(long size) {
        long total = 4L * env.framesFor(size);
        PublishChannel ch = null;
        MappedBuffer sums = null;
        try {
            ch = env.openChannel("throughput", List.of(env.consumer()), size, env.slotsFor(size), ReadMode.COPY);
            ConsumerPort port = ch.consumer(env.consumer());
            sums = env.backend().device(env.consumer()).allocateMapped(8L * ChecksumListener.RESULT_WORDS);
            port.subscribeDevice(new ChecksumListener(size, sums));
            Pump pump = new Pump(ch, port, size, false);
            pump.run(env.warmupFor(size)); // JIT and driver warm-up, untimed
            ConsumerSnapshot before = port.snapshot();
            long nanos = pump.run(total);
            ConsumerSnapshot after = port.snapshot();
            long last = pump.sent;
            FrameVerifier.Outcome check = FrameVerifier.verify(sums, last, size);
            double seconds = nanos / 1e9;
            double reads = (after.deviceConsumeSteps() - before.deviceConsumeSteps())
                    / (double) total;
            return new Results.ThroughputRow(Results.JAVA, "throughput", size, total, seconds, total * (double) size / seconds / 1e9,
                    check.verified(), check.corrupt(), pump.allocPerFrame, reads);
        } finally {
            BenchEnvironment.closeQuietly(ch);
            if (sums != null) {
                sums.close();
            }
        }
    }

    /**
     * The channel's transport ceiling: no per-frame kernel on either side. The producer claims and
     * commits up to a publish batch of frames (their slots hold a pattern written once), then publishes
     * them with one release add; the consumer's device listener enqueues nothing, so a round costs a
     * consume and an ack launch. What remains per frame is {@code commitDevice}'s stream write of the
     * length: the floor of today's API. The consume step still copies every byte and checks every stamp.
     */
    Results.ThroughputRow runBatched(long size) {
        long total = 4L * env.framesFor(size);
        PublishChannel ch = null;
        try {
            ch = env.openChannel("batched", List.of(env.consumer()), size, env.slotsFor(size), ReadMode.COPY);
            ConsumerPort port = ch.consumer(env.consumer());
            port.subscribeDevice(NO_DEVICE_WORK);
            BenchWork.on(ch.producerStream()).fill(ch.ring(), 0, ch.spec().geometry().ringBytes(), 11); // never move zeros
            ch.producerStream().synchronize();
            Pump pump = new Pump(ch, port, size, true);
            pump.run(env.warmupFor(size));
            ConsumerSnapshot before = port.snapshot();
            long nanos = pump.run(total);
            ConsumerSnapshot after = port.snapshot();
            double seconds = nanos / 1e9;
            long missed = after.missed() - before.missed();
            long delivered = after.delivered() - before.delivered();
            double reads = (after.deviceConsumeSteps() - before.deviceConsumeSteps())
                    / (double) total;
            return new Results.ThroughputRow(Results.JAVA, "batched", size, total, seconds, total * (double) size / seconds / 1e9,
                    delivered, missed + Math.max(0, total - delivered), pump.allocPerFrame, reads);
        } finally {
            BenchEnvironment.closeQuietly(ch);
        }
    }

    /** A device listener with no work: the round is consume + ack. A constant, so nothing is built per round. */
    private static final io.seqlink.channel.DeviceFrameHandler NO_DEVICE_WORK = frames -> {
    };

    /**
     * Moves frames through one channel with a producer and a consumer thread. Pipelined: a fill kernel
     * and a publish per frame. Batched: no per-frame kernel, a publish per batch (the transport's ceiling).
     */
    private static final class Pump {
        private final PublishChannel ch;
        private final ConsumerPort port;
        private final long size;
        private final int batch;
        private final boolean batched;
        long sent;
        double allocPerFrame;

        Pump(PublishChannel ch, ConsumerPort port, long size, boolean batched) {
            this.ch = ch;
            this.port = port;
            this.size = size;
            this.batch = ch.spec().maxPublishBatch();
            this.batched = batched;
        }

        /** Moves {@code count} frames; returns the nanoseconds until the last one was acknowledged. */
        long run(long count) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long[] alloc = new long[2];
            long first = sent + 1;
            long last = sent + count;
            String kind = batched ? "batched" : "pipelined";
            Thread producer = new Thread(() -> guard(failure,
                    () -> alloc[0] = batched ? produceBatches(count, failure) : produce(first, last, failure)), "bench-producer");
            Thread consumer = new Thread(() -> guard(failure,
                    () -> alloc[1] = pollUntil(port, batch, count, new Progress(kind + " consumer of " + ch.name(), failure))),
                    "bench-consumer");
            long start = System.nanoTime();
            producer.start();
            consumer.start();
            join(producer);
            join(consumer);
            Throwable t = failure.get();
            if (t != null) {
                throw new IllegalStateException(kind + " run failed: " + t, t);
            }
            Spin.awaitAtLeast(port::acknowledged, last, "the final ack");
            long nanos = System.nanoTime() - start;
            sent = last;
            allocPerFrame = alloc[0] < 0 || alloc[1] < 0 ? Double.NaN : (alloc[0] + alloc[1]) / (double) count;
            return nanos;
        }

        /** Per frame: claim, fill kernel, commit, publish. */
        private long produce(long first, long last, AtomicReference<Throwable> failure) {
            PatternKernels work = BenchWork.on(ch.producerStream());
            Memory ring = ch.ring();
            Progress progress = new Progress("producer of " + ch.name(), failure);
            long a0 = AllocationMeter.current();
            for (long s = first; s <= last; s++) {
                long seq = ch.tryClaim();
                while (seq == ClaimStatus.BACK_PRESSURED) {
                    progress.idle();
                    seq = ch.tryClaim();
                }
                if (seq != s) {
                    throw new IllegalStateException("claim returned " + seq + " for frame " + s + ": " + ch.snapshot());
                }
                progress.moved();
                work.fill(ring, ch.payloadOffset(seq), size, seq);
                ch.commitDevice((int) size);
                ch.publish();
            }
            long a1 = AllocationMeter.current();
            return a0 < 0 ? -1 : a1 - a0;
        }

        /** Claims and commits without a kernel, publishing a batch at a time. */
        private long produceBatches(long count, AtomicReference<Throwable> failure) {
            Progress progress = new Progress("batched producer of " + ch.name(), failure);
            long a0 = AllocationMeter.current();
            long done = 0;
            int pending = 0;
            while (done < count) {
                long seq = ch.tryClaim();
                if (seq > 0) {
                    ch.commitDevice((int) size);
                    pending++;
                    done++;
                    progress.moved();
                    if (pending == batch || done == count) {
                        ch.publish();
                        pending = 0;
                    }
                } else if (seq == ClaimStatus.BACK_PRESSURED || seq == ClaimStatus.BATCH_FULL) {
                    if (pending > 0) {
                        ch.publish(); // never sit on committed frames while waiting for the consumer
                        pending = 0;
                    } else {
                        progress.idle();
                    }
                } else {
                    throw new IllegalStateException("claim returned status " + seq + ": " + ch.snapshot());
                }
            }
            long a1 = AllocationMeter.current();
            return a0 < 0 ? -1 : a1 - a0;
        }
    }

    /** Polls {@code port} until it has taken {@code count} frames; the bytes this thread allocated meanwhile, or -1. */
    static long pollUntil(io.seqlink.channel.ConsumerPort port, int batch, long count, Progress progress) {
        long a0 = AllocationMeter.current();
        long taken = 0;
        while (taken < count) {
            int n = port.poll(batch);
            if (n == 0) {
                progress.idle();
            } else {
                taken += n;
                progress.moved();
            }
        }
        long a1 = AllocationMeter.current();
        return a0 < 0 ? -1 : a1 - a0;
    }

    /** Runs {@code body}, keeping the first failure for the harness (a partner's abort is not a failure of its own). */
    static void guard(AtomicReference<Throwable> failure, Runnable body) {
        try {
            body.run();
        } catch (Progress.PartnerFailed stop) {
            // the partner's failure is already recorded
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + t.getName(), ex);
        }
    }
}
