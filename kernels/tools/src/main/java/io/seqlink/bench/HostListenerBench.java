package io.seqlink.bench;

import io.seqlink.backend.Memory;
import io.seqlink.backend.PatternKernels;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.ReadMode;
import io.seqlink.report.LatencyHistogram;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The host listener's rows through the public API: the producer as the other rows have it (claim, the pattern
 * filled by a kernel on the producer stream, {@code commitDevice}, publish) and a {@link HostFrameCheck} subscribed on
 * the consumer's port, delivered as {@link HostListenerDelivery} says, with the channel's armed rounds on (its
 * default) or off, opened as a service's channel is (its host listener named as it opens, so the producer pushes its frames
 * to the host). Whatever host delivery the runtime chooses by default is what these rows measure.
 *
 * <ul>
 *   <li>{@link #cycle}: one frame in flight, timed from the claim until the listener saw the frame (its cheap check
 *       done); then, untimed, until the listener returned (the sampled checksum) and the frame was acknowledged.</li>
 *   <li>{@link #pipelined}: a producer thread publishes frame after frame under lossless backpressure; GB/s of payload
 *       from the first timed frame's claim until the listener saw the last; then a tail of frames, not timed, whose
 *       checksums the listener checks.</li>
 * </ul>
 * Allocation: the measuring thread's bytes over the timed frames (the producer thread's too in the pipelined rows),
 * plus the launcher loop thread's where it delivers. Runs on the harness thread.
 */
final class HostListenerBench {

    private final BenchEnvironment env;
    private final HostListenerDelivery delivery;

    HostListenerBench(BenchEnvironment env, HostListenerDelivery delivery) {
        this.env = env;
        this.delivery = delivery;
    }

    /** The rows' mode: {@code host-launcher}, {@code host-polled}, with {@code -unarmed} when armed rounds are off. */
    static String mode(HostListenerDelivery delivery, boolean armed) {
        return "host-" + delivery.id() + (armed ? "" : "-unarmed");
    }

    Results.CycleRow cycle(long size, boolean armed) {
        int frames = env.framesFor(size);
        int warmup = env.warmupFor(size);
        long total = (long) warmup + frames;
        PublishChannel ch = null;
        try {
            ch = open("cycle", size, armed);
            ConsumerPort port = ch.consumer(env.consumer());
            PatternKernels work = BenchWork.on(ch.producerStream()); // bound before any round is armed
            HostFrameCheck check = new HostFrameCheck(size, total);
            check.window(warmup + 1, total, warmup + 1);
            port.subscribe(check);
            LongSupplier seen = check::seen; // built once: a method reference per frame could allocate
            LongSupplier done = () -> Math.min(check.handled(), port.acknowledged());
            Memory ring = ch.ring();
            LatencyHistogram latency = new LatencyHistogram();
            ConsumerSnapshot before = port.snapshot(); // replaced after the warm-up
            long allocBefore = -1;
            for (long s = 1; s <= total; s++) {
                if (s == warmup + 1) {
                    latency.reset();
                    before = port.snapshot();
                    allocBefore = AllocationMeter.current();
                }
                delivery.beforeFrame(port);
                long t0 = System.nanoTime();
                long seq = ChannelCycleBench.claim(ch);
                work.fill(ring, ch.payloadOffset(seq), size, seq);
                ch.commitDevice((int) size);
                ch.publish();
                delivery.awaitFrame(port, seen, seq, "the host listener's frame");
                latency.record(check.seenNanos() - t0);
                delivery.awaitFrame(port, done, seq, "the host listener's return and the ack");
            }
            long allocAfter = AllocationMeter.current();
            ConsumerSnapshot after = port.snapshot();
            double alloc = allocation(allocBefore, allocAfter, check, frames);
            double steps = (after.deviceConsumeSteps() - before.deviceConsumeSteps()) / (double) frames;
            return new Results.CycleRow(Results.JAVA, mode(delivery, armed), size, latency.percentiles(), check.verified(),
                    check.corrupt(total), alloc, steps);
        } finally {
            BenchEnvironment.closeQuietly(ch);
        }
    }

    Results.ThroughputRow pipelined(long size, boolean armed) {
        int warmup = env.warmupFor(size);
        long total = 4L * env.framesFor(size);
        long tail = tail(size, total);
        long last = warmup + total;
        long end = last + tail;
        PublishChannel ch = null;
        try {
            ch = open("pipelined", size, armed);
            ConsumerPort port = ch.consumer(env.consumer());
            BenchWork.on(ch.producerStream());
            HostFrameCheck check = new HostFrameCheck(size, end);
            check.window(warmup + 1, last, last + 1);
            port.subscribe(check);
            LongSupplier seen = check::seen;
            LongSupplier handled = check::handled;
            int batch = ch.spec().maxPublishBatch();
            run(ch, port, 1, warmup, batch, handled); // JIT and driver warm-up, untimed
            ConsumerSnapshot before = port.snapshot();
            long t0 = System.nanoTime();
            long[] bytes = run(ch, port, warmup + 1, last, batch, seen);
            long nanos = check.seenNanos() - t0;
            ConsumerSnapshot after = port.snapshot();
            run(ch, port, last + 1, end, batch, handled); // the tail: checksums checked, untimed
            delivery.awaitFrame(port, port::acknowledged, end, "the host listener's final ack");
            double seconds = nanos / 1e9;
            double alloc = bytes[0] < 0 || bytes[1] < 0 ? Double.NaN
                    : allocation(0, bytes[0] + bytes[1], check, total);
            double steps = (after.deviceConsumeSteps() - before.deviceConsumeSteps()) / (double) total;
            return new Results.ThroughputRow(Results.JAVA, mode(delivery, armed), size, total, seconds,
                    total * (double) size / seconds / 1e9, check.verified(), check.corrupt(end), alloc, steps);
        } finally {
            BenchEnvironment.closeQuietly(ch);
        }
    }

    /**
     * The frames after the {@code timed} ones whose checksums a pipelined row checks: up to 1,024 frames of 64 KiB and
     * less (all checked), 16 per checked frame above, as many as {@link ChecksumSample}'s budget covers (at least one),
     * and never more than were timed.
     */
    static long tail(long size, long timed) {
        long budgeted = Math.max(1, ChecksumSample.BUDGET_BYTES / size);
        return Math.min(timed, size <= BenchEnvironment.LARGE_FRAME ? Math.min(1024, budgeted) : 16 * Math.min(64, budgeted));
    }

    private PublishChannel open(String shape, long size, boolean armed) {
        ChannelSpec spec = env.spec("host-" + delivery.id() + "-" + shape, List.of(env.consumer()), size, env.slotsFor(size),
                ReadMode.COPY).armedRounds(armed).hostListeners(env.consumer()).build();
        return delivery.open(env, spec);
    }

    /** Bytes per frame: the measuring thread's {@code measured} plus the delivering thread's; NaN where either is unknown. */
    private double allocation(long before, long after, HostFrameCheck check, long frames) {
        long other = delivery.otherThreadBytes(check);
        if (before < 0 || after < 0 || other < 0) {
            return Double.NaN;
        }
        return (after - before + other) / (double) frames;
    }

    /**
     * Frames {@code first} to {@code last}, published by a producer thread of their own while the measuring thread
     * waits (polling, where the delivery polls) until {@code value} reaches {@code last}. Returns the bytes the
     * producer thread and the measuring thread allocated meanwhile (-1 where unknown).
     */
    private long[] run(PublishChannel ch, ConsumerPort port, long first, long last, int batch, LongSupplier value) {
        if (last < first) {
            return new long[2];
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[] bytes = {-1, -1};
        Thread producer = new Thread(() -> ChannelThroughputBench.guard(failure, () -> bytes[0] = produce(ch, first, last, failure)),
                "bench-host-producer");
        producer.start();
        try {
            long a0 = AllocationMeter.current();
            delivery.awaitBacklog(port, batch, value, last, new Progress("host listener of " + ch.name(), failure));
            long a1 = AllocationMeter.current();
            bytes[1] = a0 < 0 ? -1 : a1 - a0;
        } catch (Progress.PartnerFailed stop) {
            // the producer's failure is reported below
        } finally {
            ChannelThroughputBench.join(producer);
        }
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("the producer of " + ch.name() + " failed: " + t, t);
        }
        return bytes;
    }

    /** Per frame: claim (waiting out backpressure), fill kernel, commit, publish. Returns the bytes this thread allocated. */
    private static long produce(PublishChannel ch, long first, long last, AtomicReference<Throwable> failure) {
        PatternKernels work = BenchWork.on(ch.producerStream());
        Memory ring = ch.ring();
        long size = ch.spec().slotBytes();
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
}
