package io.seqlink.backend.emulated;

import io.seqlink.backend.DeviceException;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.ProbeMeasurement;
import io.seqlink.backend.ProbeMeasurement.ScalingPoint;
import io.seqlink.backend.ProbePlan;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The link probe on the emulated backend, through the same steps as the CUDA probe kernels: a
 * pattern read across the link, counted atomic adds from several threads, dependent chains of remote
 * adds and acquire loads, and throughput as threads grow. Simulated links behave as their
 * {@link LinkMode} says: without native atomics a remote add is a read then a write (updates get
 * lost); a proxied link is slow and serialised.
 */
final class EmulatedProbe {

    /** Java threads stand in for GPU threads; more would only measure the host's scheduler. */
    private static final int MAX_HOST_THREADS = Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors()));

    private final EmulatedDevice producer;
    private final EmulatedDevice consumer;
    private final ProbePlan plan;
    private final Object proxyLock = new Object();

    EmulatedProbe(EmulatedBackend backend, EmulatedDevice producer, EmulatedDevice consumer, ProbePlan plan) {
        this.producer = producer;
        this.consumer = consumer;
        this.plan = plan;
    }

    ProbeMeasurement run() {
        long start = System.nanoTime();
        long deadline = start + plan.timeout().toNanos();
        try (EmulatedDeviceBuffer target = (EmulatedDeviceBuffer) producer.allocate(Math.max(4096, plan.patternBytes()))) {
            StringBuilder detail = new StringBuilder();
            boolean ok = patternCheck(target, detail) & countedAdds(target, detail);
            double addNs = bestChain(target, plan.chainLength(), true);
            double loadNs = bestChain(target, plan.chainLength(), false);
            List<ScalingPoint> scaling = new ArrayList<>();
            double single = throughput(target, 1);
            for (int threads : plan.threadCounts()) {
                if (System.nanoTime() > deadline) {
                    throw new DeviceException("CUDA_ERROR_TIMEOUT", "seqlink_probe_scaling", consumer.ordinal(), false,
                            "probe exceeded its timeout of " + plan.timeout());
                }
                scaling.add(new ScalingPoint(threads, 1, single * simulatedScaling(threads)));
            }
            return new ProbeMeasurement(ok, detail.toString().trim(), addNs, loadNs, scaling,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
    }

    private boolean patternCheck(EmulatedDeviceBuffer target, StringBuilder detail) {
        int bytes = (int) Math.min(plan.patternBytes(), target.bytes());
        long seed = 0x5EED_0000L + consumer.ordinal();
        FramePattern.fill(target.buffer, 0, bytes, seed);
        consumer.access(target, "seqlink_probe_pattern");
        long sum = FramePattern.checksum(target.buffer, 0, bytes);
        if (sum != FramePattern.expectedChecksum(seed, bytes)) {
            detail.append("pattern of ").append(bytes).append(" B read back corrupted. ");
            return false;
        }
        detail.append("pattern of ").append(bytes).append(" B read back intact. ");
        return true;
    }

    private boolean countedAdds(EmulatedDeviceBuffer target, StringBuilder detail) {
        int threads = MAX_HOST_THREADS;
        int adds = Math.max(1, plan.countedAdds()) * 64;
        target.setReleaseWord(0, 0);
        runThreads(threads, () -> {
            for (int i = 0; i < adds; i++) {
                remoteAdd(target, 0, 1);
            }
        });
        long expected = (long) threads * adds;
        long got = target.getAcquireWord(0);
        if (got != expected) {
            detail.append("counted atomic adds: ").append(got).append(" of ").append(expected)
                    .append(" arrived (").append(expected - got).append(" lost: remote adds are not atomic).");
            return false;
        }
        detail.append("counted atomic adds: all ").append(expected).append(" arrived.");
        return true;
    }

    /** One remote add as the link does it. */
    private long remoteAdd(EmulatedDeviceBuffer target, long offset, long delta) {
        consumer.access(target, "seqlink_probe_atomic");
        LinkMode mode = consumer.mode(target.ownerDevice());
        if (mode == LinkMode.NVLINK_PROXIED) {
            synchronized (proxyLock) { // proxied atomics serialise at the owner
                return target.getAndAddReleaseWord(offset, delta);
            }
        }
        if (consumer.nativeAtomics(target.ownerDevice())) {
            return target.getAndAddReleaseWord(offset, delta);
        }
        long v = target.getAcquireWord(offset); // a read, then a write: not atomic
        Thread.yield();
        target.setReleaseWord(offset, v + delta);
        return v;
    }

    /**
     * How remote-atomic throughput grows with GPU threads on this simulated link, relative to one
     * thread. Java threads cannot stand in for GPU threads here: on a two-core CI host, eight host
     * threads measure the scheduler and the other builds on the machine, and the verdict wandered
     * between PEER_ATOMIC and PEER_COPY from run to run. So the single-thread operation is really
     * executed and timed, and the growth is the link mode's: native atomics pipeline (linear in
     * threads), proxied atomics serialise at the owner and retry under contention (they fall).
     */
    private double simulatedScaling(int threads) {
        LinkMode mode = consumer.mode(producer.ordinal());
        if (mode == LinkMode.NVLINK_PROXIED) {
            return 1.0 / (1 + Math.log(Math.max(1, threads)) / Math.log(2));
        }
        return Math.max(1, threads);
    }

    /** The fastest of a few short chains: a preempted chain measures the host, not the link. */
    private double bestChain(EmulatedDeviceBuffer target, int length, boolean add) {
        double best = Double.MAX_VALUE;
        int part = Math.max(1, length / 5);
        for (int i = 0; i < 5; i++) {
            best = Math.min(best, chain(target, part, add));
        }
        return best;
    }

    private double chain(EmulatedDeviceBuffer target, int length, boolean add) {
        long v = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < length; i++) {
            if (add) {
                v = remoteAdd(target, 8 + ((v & 1) << 3), 1); // the next address depends on the last result
            } else {
                consumer.access(target, "seqlink_probe_load");
                v = target.getAcquireWord(8 + ((v & 1) << 3));
            }
        }
        return (System.nanoTime() - t0) / (double) Math.max(1, length);
    }

    private double throughput(EmulatedDeviceBuffer target, int threads) {
        int hostThreads = Math.min(threads, MAX_HOST_THREADS);
        int ops = 2000;
        long t0 = System.nanoTime();
        runThreads(hostThreads, () -> {
            for (int i = 0; i < ops; i++) {
                remoteAdd(target, 128, 1);
            }
        });
        double seconds = (System.nanoTime() - t0) / 1e9;
        return hostThreads * (double) ops / seconds;
    }

    private static void runThreads(int n, Runnable body) {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                body.run();
            }, "seqlink-probe-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
