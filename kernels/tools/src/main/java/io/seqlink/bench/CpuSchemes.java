package io.seqlink.bench;

import io.seqlink.backend.FramePattern;
import io.seqlink.report.LatencyHistogram;
import io.seqlink.report.Percentiles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The source article's four schemes on the CPU: the reference run on the emulated backend, and the
 * model of what the comparator's GPU kernels ({@code seqlink_bench_*} in {@code kernels/tools/src/main/cuda/baselines.cu})
 * do. One producer thread and one consumer thread; each round moves {@code threads} packets of
 * {@code packetBytes}. A GPU block's lanes are played by one Java thread that performs, and counts,
 * every load each lane would make, so the "remote reads" column is measured the way the kernels
 * measure it: the consumer's loads of producer-owned memory, polls and packet words alike.
 *
 * <ul>
 *   <li>{@code mutex-spin}: one lock word; the producer takes it to write a round, the consumer to read one;</li>
 *   <li>{@code flag-spin}: a full/empty flag that every consumer lane polls (the article's first version);</li>
 *   <li>{@code lock-free-counter}: a monotonic {@code publish_seq}; one acquire read per poll; the ack a release store;</li>
 *   <li>{@code counter-double-buffer}: the same with two packet buffers, so the producer writes one while the consumer reads the other.</li>
 * </ul>
 */
final class CpuSchemes {

    static final List<String> NAMES = List.of("mutex-spin", "flag-spin", "lock-free-counter", "counter-double-buffer");

    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);
    /** Control words 128 bytes apart (16 longs): no two share a cache line, like the kernels' {@code WORD_LINE}. */
    private static final int LINE = 16;
    private static final int LOCK = 0;
    private static final int VERSION = LINE;
    private static final int CONSUMED = 2 * LINE;
    private static final int DONE = 3 * LINE;
    /** A wait that makes no progress this long gives up and counts a timeout (the kernels' bounded spins). */
    private static final long GIVE_UP_NANOS = 1_000_000_000L;
    private static final long WARM_UP_NANOS = 300_000_000L;

    private final int threads;
    private final int packetWords;

    CpuSchemes(int threads, int packetBytes) {
        this.threads = threads;
        this.packetWords = packetBytes / 8;
    }

    /** Runs one scheme untimed for a moment (so the JIT has compiled both sides), then for {@code durationNanos}. */
    Results.SchemeRow run(String scheme, long durationNanos, String topology) {
        once(scheme, Math.min(durationNanos, WARM_UP_NANOS), topology);
        return once(scheme, durationNanos, topology);
    }

    private Results.SchemeRow once(String scheme, long durationNanos, String topology) {
        int slots = scheme.equals("counter-double-buffer") ? 2 : 1;
        Shared s = new Shared(slots, durationNanos);
        Runnable producer;
        Runnable consumer;
        switch (scheme) {
            case "mutex-spin" -> {
                producer = () -> mutexProducer(s);
                consumer = () -> mutexConsumer(s);
            }
            case "flag-spin" -> {
                producer = () -> flagProducer(s);
                consumer = () -> flagConsumer(s);
            }
            case "lock-free-counter", "counter-double-buffer" -> {
                producer = () -> counterProducer(s);
                consumer = () -> counterConsumer(s);
            }
            default -> throw new IllegalArgumentException("unknown scheme " + scheme + "; one of " + NAMES);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread c = new Thread(() -> ChannelThroughputBench.guard(failure, consumer), "bench-scheme-consumer");
        Thread p = new Thread(() -> ChannelThroughputBench.guard(failure, producer), "bench-scheme-producer");
        c.start();
        p.start();
        ChannelThroughputBench.join(p);
        ChannelThroughputBench.join(c);
        if (failure.get() != null) {
            throw new IllegalStateException(scheme + " failed: " + failure.get(), failure.get());
        }
        double seconds = Math.max(1, s.endNanos - s.startNanos) / 1e9;
        long rounds = s.received;
        double dataWords = (double) (s.received + s.corrupt) * threads * packetWords;
        double remote = rounds == 0 ? 0 : s.remoteReads / (double) rounds;
        double control = rounds == 0 ? 0 : (s.remoteReads - dataWords) / rounds;
        Percentiles latency = s.latency.percentiles();
        return new Results.SchemeRow(scheme, "cpu-reference", topology, threads, packetWords * 8, seconds, rounds,
                rounds * (double) threads * packetWords * 8 / seconds / 1e9, latency.p50(), latency.p99(), latency.p999(), remote,
                control,
                s.producerTimeouts + s.consumerTimeouts, s.corrupt);
    }

    /** Memory shared by the two sides, and each side's own counters (one writer each). */
    private final class Shared {
        final long[] control = new long[4 * LINE];
        final long[] data;
        final int slots;
        final long duration;
        final LatencyHistogram latency = new LatencyHistogram();
        volatile long startNanos;
        volatile long endNanos;
        long received;
        long corrupt;
        long remoteReads;
        long producerTimeouts;
        long consumerTimeouts;

        Shared(int slots, long duration) {
            this.slots = slots;
            this.duration = duration;
            this.data = new long[slots * threads * packetWords];
        }

        long get(int i) {
            return (long) WORD.getVolatile(control, i);
        }

        long getAcquire(int i) {
            return (long) WORD.getAcquire(control, i);
        }

        void setRelease(int i, long v) {
            WORD.setRelease(control, i, v);
        }

        boolean lock() {
            return WORD.compareAndSet(control, LOCK, 0L, 1L);
        }

        void unlock() {
            WORD.setRelease(control, LOCK, 0L);
        }

        /** Every lane writes its packet of {@code round} into buffer {@code buffer}: word 0 the round, word 1 the time. */
        void writeRound(int buffer, long round) {
            long now = System.nanoTime();
            int base = buffer * threads * packetWords;
            for (int lane = 0; lane < threads; lane++) {
                int p = base + lane * packetWords;
                data[p] = round;
                data[p + 1] = now;
                for (int w = 2; w < packetWords; w++) {
                    data[p + w] = FramePattern.mix(round + w);
                }
            }
        }

        /** Every lane reads and checks its packet; records the round's latency from lane 0's stamp. */
        void readRound(int buffer, long round) {
            int base = buffer * threads * packetWords;
            boolean ok = true;
            for (int lane = 0; lane < threads; lane++) {
                int p = base + lane * packetWords;
                ok &= data[p] == round;
                for (int w = 2; w < packetWords; w++) {
                    ok &= data[p + w] == FramePattern.mix(round + w);
                }
            }
            remoteReads += (long) threads * packetWords;
            long now = System.nanoTime();
            if (ok) {
                received++;
                latency.record(now - data[base + 1]);
            } else {
                corrupt++;
            }
            endNanos = now;
        }
    }

    /** Tracks a wait without progress; true once it has lasted {@link #GIVE_UP_NANOS}. */
    private static final class Patience {
        private int spins;
        private long since;

        void reset() {
            spins = 0;
            since = 0;
        }

        boolean exhausted() {
            if ((++spins & 1023) != 0) {
                return false;
            }
            long now = System.nanoTime();
            if (since == 0) {
                since = now;
                return false;
            }
            return now - since > GIVE_UP_NANOS;
        }
    }

    // ---- mutex + spin ---------------------------------------------------------------------------

    private void mutexProducer(Shared s) {
        long start = System.nanoTime();
        s.startNanos = start;
        long round = 0;
        Patience wait = new Patience();
        while (System.nanoTime() - start < s.duration) {
            if (s.lock()) {
                if (s.get(CONSUMED) == round) {
                    round++;
                    s.writeRound(0, round);
                    WORD.setOpaque(s.control, VERSION, round);
                    s.unlock();
                    wait.reset();
                    continue;
                }
                s.unlock();
            }
            if (wait.exhausted()) {
                s.producerTimeouts++;
                break;
            }
        }
        s.setRelease(DONE, 1);
    }

    private void mutexConsumer(Shared s) {
        long seen = 0;
        Patience wait = new Patience();
        while (true) {
            s.remoteReads++;
            if (s.lock()) {
                s.remoteReads++;
                long v = (long) WORD.getOpaque(s.control, VERSION);
                if (v > seen) {
                    s.readRound(0, v);
                    seen = v;
                    WORD.setOpaque(s.control, CONSUMED, v);
                    s.unlock();
                    wait.reset();
                    continue;
                }
                s.unlock();
                s.remoteReads++;
                if (s.getAcquire(DONE) != 0) {
                    return;
                }
            }
            if (wait.exhausted()) {
                s.consumerTimeouts++;
                return;
            }
        }
    }

    // ---- atomic flag + spin ---------------------------------------------------------------------

    private void flagProducer(Shared s) {
        long start = System.nanoTime();
        s.startNanos = start;
        long round = 0;
        Patience wait = new Patience();
        while (System.nanoTime() - start < s.duration) {
            if (s.getAcquire(LOCK) == 0) {
                round++;
                s.writeRound(0, round);
                WORD.setOpaque(s.control, VERSION, round);
                s.setRelease(LOCK, 1);
                wait.reset();
            } else if (wait.exhausted()) {
                s.producerTimeouts++;
                break;
            }
        }
        s.setRelease(DONE, 1);
    }

    private void flagConsumer(Shared s) {
        Patience wait = new Patience();
        while (true) {
            // every lane polls the flag: the read storm of the article's first version
            boolean full = true;
            for (int lane = 0; lane < threads; lane++) {
                full &= s.getAcquire(LOCK) == 1;
            }
            s.remoteReads += threads;
            if (!full) {
                s.remoteReads += threads; // each lane also looks at the done word
                if (s.getAcquire(DONE) != 0 && s.getAcquire(LOCK) == 0) {
                    return;
                }
                if (wait.exhausted()) {
                    s.consumerTimeouts++;
                    return;
                }
                continue;
            }
            wait.reset();
            long round = (long) WORD.getOpaque(s.control, VERSION);
            s.remoteReads += threads; // every lane reads the round word
            s.readRound(0, round);
            s.setRelease(LOCK, 0);
        }
    }

    // ---- lock-free monotonic counter (1 or 2 buffers) ------------------------------------------------

    private void counterProducer(Shared s) {
        long start = System.nanoTime();
        s.startNanos = start;
        long round = 0;
        Patience wait = new Patience();
        while (System.nanoTime() - start < s.duration) {
            if (round + 1 <= s.getAcquire(CONSUMED) + s.slots) { // the buffer of round + 1 was read (own memory: not remote)
                round++;
                s.writeRound((int) (round % s.slots), round);
                s.setRelease(VERSION, round); // single writer: the release store is the publish_seq add
                wait.reset();
            } else if (wait.exhausted()) {
                s.producerTimeouts++;
                break;
            }
        }
        s.setRelease(DONE, 1);
    }

    private void counterConsumer(Shared s) {
        long seen = 0;
        Patience wait = new Patience();
        while (true) {
            long p = s.getAcquire(VERSION); // one read of publish_seq per poll, by one "thread"
            s.remoteReads++;
            if (p == seen) {
                s.remoteReads++;
                if (s.getAcquire(DONE) != 0 && s.getAcquire(VERSION) == seen) {
                    return;
                }
                if (wait.exhausted()) {
                    s.consumerTimeouts++;
                    return;
                }
                Thread.onSpinWait(); // back off, as the kernel's __nanosleep
                continue;
            }
            wait.reset();
            for (long round = seen + 1; round <= p; round++) {
                s.readRound((int) (round % s.slots), round);
            }
            seen = p;
            s.setRelease(CONSUMED, seen);
        }
    }
}
