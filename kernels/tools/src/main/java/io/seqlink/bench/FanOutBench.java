package io.seqlink.bench;

import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.report.LatencyHistogram;
import io.seqlink.report.Percentiles;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * One producer to k consumers, k = 1..N: the cycle latency until every consumer acknowledged a frame,
 * then pipelined throughput with one host thread per consumer. Consumers sit on distinct devices
 * when the host has them, otherwise on k streams of the producer's device (reported as such).
 */
final class FanOutBench {

    private final BenchEnvironment env;

    FanOutBench(BenchEnvironment env) {
        this.env = env;
    }

    Results.FanOutRow run(int k, long size) {
        List<Integer> devices = env.fanOutDevices(k);
        String placement = env.backend().deviceCount() > 1 ? "devices " + devices : k + " stream(s) of device " + env.producer();
        int slots = env.slotsFor(size);
        try (FanOutRig rig = new FanOutRig(env.backend(), env.producer(), devices, slots, size)) {
            int frames = Math.min(env.framesFor(size), 5000);
            long next = 1;
            LatencyHistogram histogram = new LatencyHistogram();
            next = cycle(rig, next, Math.min(env.warmupFor(size), 1000), size, histogram);
            histogram.reset();
            next = cycle(rig, next, frames, size, histogram);
            Percentiles latency = histogram.percentiles();

            long readsBefore = totalReads(rig);
            long total = 4L * frames;
            long t0 = System.nanoTime();
            long last = pipelined(rig, next, total, size);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double readsPerFrame = (totalReads(rig) - readsBefore) / (double) total / k;
            long corrupt = 0;
            for (FanOutRig.Consumer c : rig.consumers) {
                corrupt += FrameVerifier.verify(c.sums, last, size).corrupt();
            }
            return new Results.FanOutRow(k, placement, size, latency, total, total * (double) size / seconds / 1e9, readsPerFrame,
                    corrupt);
        }
    }

    private static long totalReads(FanOutRig rig) {
        long n = 0;
        for (FanOutRig.Consumer c : rig.consumers) {
            n += c.controlReads();
        }
        return n;
    }

    /** Frames one at a time, each until every consumer acked it; records each frame's latency. */
    private static long cycle(FanOutRig rig, long first, int count, long size, LatencyHistogram latency) {
        LongSupplier published = rig::published;
        LongSupplier slowest = rig::slowestAck;
        for (int i = 0; i < count; i++) {
            long s = first + i;
            long t0 = System.nanoTime();
            rig.produce(s, size);
            Spin.awaitAtLeast(published, s, "the publish mirror (fan-out)");
            for (FanOutRig.Consumer c : rig.consumers) {
                c.take(s, s, size);
            }
            Spin.awaitAtLeast(slowest, s, "every consumer's ack (fan-out)");
            latency.record(System.nanoTime() - t0);
        }
        return first + count;
    }

    /** Frames {@code first..first+count-1} with a producer thread and one thread per consumer; returns the last sequence. */
    private static long pipelined(FanOutRig rig, long first, long count, long size) {
        long last = first + count - 1;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int slots = rig.geometry.slots();
        Thread producer = new Thread(() -> ChannelThroughputBench.guard(failure, () -> {
            Progress progress = new Progress("fan-out producer", failure);
            for (long s = first; s <= last; s++) {
                while (s - slots > rig.slowestAck()) { // lossless: slot s last held s - slots, which every consumer must have acked
                    progress.idle();
                }
                progress.moved();
                rig.produce(s, size);
            }
        }), "bench-fanout-producer");
        Thread[] consumers = new Thread[rig.consumers.size()];
        for (int i = 0; i < consumers.length; i++) {
            FanOutRig.Consumer c = rig.consumers.get(i);
            consumers[i] = new Thread(() -> ChannelThroughputBench.guard(failure, () -> {
                Progress progress = new Progress("fan-out consumer " + c.index, failure);
                long next = first;
                while (next <= last) {
                    long pub = rig.mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
                    if (pub < next) {
                        progress.idle();
                        continue;
                    }
                    long to = Math.min(Math.min(pub, last), next + rig.maxBatch - 1);
                    c.take(next, to, size);
                    next = to + 1;
                    progress.moved();
                }
            }), "bench-fanout-consumer-" + i);
        }
        producer.start();
        for (Thread t : consumers) {
            t.start();
        }
        ChannelThroughputBench.join(producer);
        for (Thread t : consumers) {
            ChannelThroughputBench.join(t);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("fan-out run failed: " + failure.get(), failure.get());
        }
        for (FanOutRig.Consumer c : rig.consumers) {
            Spin.awaitAtLeast(() -> c.cmirror.getAcquire(ConsumerBlock.CONSUMED_SEQ), last, "consumer " + c.index + "'s final ack");
        }
        return last;
    }
}
