package io.seqlink.shared;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.PatternKernels;
import io.seqlink.channel.AttachedConsumer;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.gpu.TestKernels;
import io.seqlink.security.SharedSecret;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.testing.ChildJvm;
import io.seqlink.testing.FrameChecker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * {@link CrossProcessLatencyBench}'s device-listener rows ({@code --listener device}): a frame's cycle from the
 * producer's claim to its acknowledgement as the producer sees it, the consumer a device listener
 * ({@link ArmedChecksumListener#gridChecked}: a kernel on the consumer's device takes the frame, a grid checks every
 * byte of it, as the hand-written consumer's one kernel does) in the
 * producer's process or in another one. What the hand-written IPC hand-off ({@code seqlink-xproc-baseline --consumer
 * device}) times: the fill kernel, the hand-off, the consumer's kernel, the acknowledgement back. The producer reads an
 * attached consumer's acknowledgement from {@link PublishChannel#attachedConsumers()}, a copy per look (allocation in
 * the wait, not in the channel). Every frame is checked after the run, outside the timed loop: taken once, in order,
 * intact.
 */
final class DeviceListenerCycles {

    private DeviceListenerCycles() {
    }

    static CrossProcessLatencyBench.Row inProcess(SeqlinkRuntime rt, int consumer, int bytes, int frames, long gapNanos) {
        int total = LatencySink.WARMUP + frames;
        PublishChannel ch = rt.openChannel(ChannelSpec.builder("cycle-in-" + bytes).producer(0).consumers(consumer).slots(64)
                .slotBytes(bytes).build());
        ArmedChecksumListener listener = ArmedChecksumListener.gridChecked(ch.consumer(consumer).stream(), total, bytes);
        ch.consumer(consumer).subscribeDevice(listener);
        rt.start();
        long[] samples = cycles(ch, bytes, total, gapNanos, () -> ch.consumer(consumer).acknowledged());
        long wrong = listener.outOfOrder();
        for (long s = 1; s <= total; s++) {
            wrong += listener.deliveries(s) == 1 && listener.intact(s) ? 0 : 1;
        }
        ch.close();
        return row("in-process", bytes, samples, wrong);
    }

    static CrossProcessLatencyBench.Row crossProcess(SeqlinkRuntime rt, String backend, int consumer, Path dir, Path secretFile,
            SharedSecret secret, int bytes, int frames, long gapNanos) throws Exception {
        int total = LatencySink.WARMUP + frames;
        String name = "cycle-x-" + bytes;
        PublishChannel ch = CrossProcessLatencyBench.openShared(rt, name, bytes, dir, secret);
        try (ChildJvm c = CrossProcessLatencyBench.attachedPeer("cycle-consumer-" + bytes, backend, consumer, "latency-device",
                dir.toString(), name, secretFile.toString(), Integer.toString(total), Integer.toString(bytes))) {
            long[] samples = cycles(ch, bytes, total, gapNanos, () -> {
                List<AttachedConsumer> attached = ch.attachedConsumers();
                return attached.isEmpty() ? 0 : attached.get(0).acknowledged();
            });
            String status = c.awaitLineContaining("acked=" + total + " ", Duration.ofSeconds(60));
            c.command("stop");
            long wrong = (total - CrossProcessLatencyBench.number(status, "delivered"))
                    + CrossProcessLatencyBench.number(status, "gaps") + CrossProcessLatencyBench.number(status, "corrupt")
                    + CrossProcessLatencyBench.number(status, "outOfOrder");
            ch.close();
            return row("cross-process", bytes, samples, wrong);
        }
    }

    /**
     * Frames 1..total one at a time, {@code gapNanos} apart: claim, the pattern kernel fills the whole frame (the seed
     * the listener checks), commit, publish, then a spin until {@code acknowledged} reaches it. Returns the cycles of
     * the frames after the warm-up, in nanoseconds.
     */
    private static long[] cycles(PublishChannel ch, int bytes, int total, long gapNanos, LongSupplier acknowledged) {
        PatternKernels fill = PatternKernels.on(ch.producerStream(), TestKernels.MODULE);
        long[] samples = new long[total - LatencySink.WARMUP];
        long next = System.nanoTime();
        for (int i = 0; i < total; i++) {
            CrossProcessLatencyBench.spinUntil(next);
            long start = System.nanoTime();
            long seq = CrossProcessLatencyBench.claim(ch);
            fill.fill(ch.ring(), ch.payloadOffset(seq), bytes, FrameChecker.seedOf(seq));
            ch.commitDevice(bytes);
            ch.publish();
            long deadline = start + TimeUnit.SECONDS.toNanos(10);
            while (acknowledged.getAsLong() < seq) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("frame " + seq + " of " + ch.name() + " not acknowledged in 10 s ("
                            + ch.snapshot() + ")");
                }
                Thread.onSpinWait();
            }
            long end = System.nanoTime();
            if (i >= LatencySink.WARMUP) {
                samples[i - LatencySink.WARMUP] = end - start;
            }
            next = end + gapNanos;
        }
        return samples;
    }

    /** No GB/s: one frame is in flight at a time, and the gap paces them. */
    private static CrossProcessLatencyBench.Row row(String path, int bytes, long[] samples, long wrong) {
        return new CrossProcessLatencyBench.Row(path, bytes, LatencySink.percentilesOf(samples), samples.length, wrong, 0);
    }

}
