package io.seqlink.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.Backends;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DriverDetection;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.PatternKernels;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** What the GPU tests share: the skip rule, how to open the CUDA backend, and a checksummed frame source and sink. */
final class Gpu {

    private Gpu() {
    }

    /** Polls {@code condition} until it holds or 20 s pass; true when it held. */
    static boolean await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                return condition.getAsBoolean();
            }
            LockSupport.parkNanos(100_000);
        }
        return true;
    }

    /** Whether the port's stream ran everything it was given (or failed: then nothing waits on it either). */
    static boolean finished(ConsumerPort port) {
        try {
            return port.stream().completed();
        } catch (DeviceException failed) {
            return true;
        }
    }

    /** Skips the calling test, saying why, unless a CUDA driver and a device answer. */
    static void assumeDriver() {
        BackendProvider p = Backends.cudaProvider();
        assumeTrue(p != null, "the CUDA backend is not on the classpath (JCuda missing)");
        DriverDetection d = p.detect();
        assumeTrue(d.usable(), "no usable CUDA driver: " + d.summary());
    }

    static Backend openBackend() {
        assumeDriver();
        return Backends.cudaProvider().open();
    }

    static SeqlinkRuntime openRuntime() {
        assumeDriver();
        return SeqlinkRuntime.builder().backend(BackendSelection.CUDA).open();
    }

    /** The length of frame {@code sequence} in a channel of {@code slotBytes}: 1 to slotBytes, varying. */
    static int lengthOf(long sequence, long slotBytes) {
        return (int) (1 + Math.floorMod(sequence * 7919L, slotBytes));
    }

    /**
     * Publishes frames 1..count, each the pattern for its sequence: even frames written on the device
     * (fill kernel + commitDevice), odd ones from the host (staging buffer + commit), published in
     * batches of up to four. Fails when a claim waits longer than 10 s.
     */
    static void produce(PublishChannel ch, long count) {
        produce(ch, count, PatternKernels.on(ch.producerStream(), TestKernels.MODULE));
    }

    /**
     * {@link #produce(PublishChannel, long)} with kernels bound once: binding loads a module, which waits for
     * the device's queued work, so the backend first releases any armed round on the device.
     */
    static void produce(PublishChannel ch, long count, PatternKernels pattern) {
        long slotBytes = ch.spec().slotBytes();
        int batch = Math.min(4, ch.spec().maxPublishBatch());
        int pending = 0;
        for (long i = 1; i <= count; i++) {
            long seq = ch.claim(10, TimeUnit.SECONDS);
            if (seq <= 0) {
                throw new AssertionError("claim of frame " + i + " returned status " + seq + "; " + ch.snapshot());
            }
            int len = lengthOf(seq, slotBytes);
            if ((seq & 1) == 0) {
                pattern.fill(ch.ring(), ch.payloadOffset(seq), len, seq);
                ch.commitDevice(len);
            } else {
                FramePattern.fill(ch.buffer(), 0, len, seq);
                ch.commit(len);
            }
            if (++pending == batch || i == count) {
                ch.publish();
                pending = 0;
            }
        }
    }

    /**
     * A thread (not started) that pauses and resumes {@code port} at random until {@code done}: each pause
     * releases the port's armed round, if any, and the resume lets the next be armed.
     */
    static Thread randomReleaser(ConsumerPort port, AtomicBoolean done) {
        return new Thread(() -> {
            while (!done.get()) {
                if (port.pause()) {
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(20_000));
                    port.resume();
                }
                LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(100_000));
            }
        }, "random-releaser");
    }

    /** A host listener that checks every frame's length and checksum and the order of sequences. */
    static class Verifier implements FrameHandler {
        final long slotBytes;
        final boolean gapless;
        final AtomicLong received = new AtomicLong();
        final AtomicLong corrupt = new AtomicLong();
        final AtomicLong outOfOrder = new AtomicLong();
        volatile long last;
        volatile String firstCorrupt;

        Verifier(long slotBytes, boolean gapless) {
            this.slotBytes = slotBytes;
            this.gapless = gapless;
        }

        @Override
        public void onFrame(Frame f) {
            long s = f.sequence();
            int len = f.length();
            if (len != lengthOf(s, slotBytes)
                    || FramePattern.checksum(f.payload(), 0, len) != FramePattern.expectedChecksum(s, len)) {
                if (corrupt.incrementAndGet() == 1) {
                    firstCorrupt = describeCorrupt(f);
                }
            }
            if (gapless ? s != last + 1 : s <= last) {
                outOfOrder.incrementAndGet();
            }
            last = s;
            received.incrementAndGet();
        }

        /** What the first corrupt frame held: its length against the expected, and which frame's pattern its payload is, if any. */
        private String describeCorrupt(Frame f) {
            long s = f.sequence();
            int len = f.length();
            StringBuilder b = new StringBuilder("frame ").append(s).append(s % 2 == 0 ? " (device-written)" : " (host-written)")
                    .append(": length ").append(len).append(" expected ").append(lengthOf(s, slotBytes));
            int n = (int) Math.min(Math.max(len, 0), slotBytes);
            ByteBuffer payload = f.payload();
            ByteBuffer expected = ByteBuffer.allocate(n);
            FramePattern.fill(expected, 0, n, s);
            int first = -1;
            int lastBad = -1;
            int bad = 0;
            for (int i = 0; i < n; i++) {
                if (payload.get(i) != expected.get(i)) {
                    bad++;
                    lastBad = i;
                    if (first < 0) {
                        first = i;
                    }
                }
            }
            b.append("; ").append(bad).append(" bytes differ, first at ").append(first).append(", last at ").append(lastBad);
            LockSupport.parkNanos(2_000_000);
            b.append(FramePattern.checksum(payload, 0, len) == FramePattern.expectedChecksum(s, len)
                    ? "; intact when read again 2 ms later" : "; still corrupt 2 ms later");
            for (long k : new long[] {-48, -32, -16, 16, 32, 48}) {
                if (s + k < 1 || first < 0) {
                    continue;
                }
                ByteBuffer other = ByteBuffer.allocate((int) slotBytes);
                FramePattern.fill(other, 0, (int) slotBytes, s + k);
                int same = 0;
                for (int i = first; i <= lastBad; i++) {
                    if (payload.get(i) != expected.get(i) && payload.get(i) == other.get(i)) {
                        same++;
                    }
                }
                if (same > 0) {
                    b.append("; ").append(same).append(" of them are frame ").append(s + k).append("'s bytes");
                }
            }
            return b.toString();
        }

        @Override
        public String toString() {
            return "received " + received + ", corrupt " + corrupt + ", out of order " + outOfOrder + ", last " + last
                    + (firstCorrupt != null ? ", first corrupt: " + firstCorrupt : "");
        }
    }
}
