package io.seqlink.backend.cuda;

import io.seqlink.backend.DeviceException;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.ProbeMeasurement;
import io.seqlink.backend.ProbeMeasurement.ScalingPoint;
import io.seqlink.backend.ProbePlan;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jcuda.driver.CUevent;
import jcuda.driver.JCudaDriver;

/**
 * The link probe on real devices: the consumer's kernels work on the producer's memory.
 * <ol>
 *   <li>pattern: the producer fills {@code patternBytes}, the consumer checksums them across the link;</li>
 *   <li>counted adds: every consumer thread adds 1 {@code countedAdds} times to one producer word;
 *       any shortfall means remote adds are not atomic;</li>
 *   <li>dependent chains of {@code atom.add.release.sys} and {@code ld.acquire.sys} (in-kernel timer);</li>
 *   <li>throughput of fetch-and-adds, each thread on its own word, at every thread count of the plan
 *       with one block and with one block per multiprocessor (timed with events).</li>
 * </ol>
 * Every step is bounded; the plan's timeout is checked between steps.
 */
final class CudaProbe {

    /** Fetch-and-adds per thread in a throughput run: enough to dwarf the launch, bounded for slow paths. */
    private static final int THROUGHPUT_OPS_ONE_BLOCK = 256;
    private static final int THROUGHPUT_OPS_ALL_BLOCKS = 32;

    private final CudaBackend backend;
    private final CudaDevice producer;
    private final CudaDevice consumer;
    private final ProbePlan plan;

    CudaProbe(CudaBackend backend, CudaDevice producer, CudaDevice consumer, ProbePlan plan) {
        this.backend = backend;
        this.producer = producer;
        this.consumer = consumer;
        this.plan = plan;
    }

    ProbeMeasurement run() {
        if (producer.ordinal() != consumer.ordinal()) {
            if (!backend.linkAttributes(consumer.ordinal(), producer.ordinal()).accessSupported()) {
                throw new DeviceException("CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "seqlink probe", consumer.ordinal(), false,
                        "device " + consumer.ordinal() + " cannot address memory of device " + producer.ordinal());
            }
            backend.enablePeerAccess(consumer.ordinal(), producer.ordinal());
        }
        long start = System.nanoTime();
        long deadline = start + plan.timeout().toNanos();
        int sms = consumer.context().multiprocessors();
        int maxThreads = 1;
        for (int t : plan.threadCounts()) {
            maxThreads = Math.max(maxThreads, t);
        }
        if (maxThreads > 1024) {
            throw new IllegalArgumentException("threadCounts: at most 1024 threads per block, the plan asks for " + maxThreads);
        }
        long targetBytes = Math.max(Math.max(4096, plan.patternBytes()), (long) maxThreads * sms * 8 + 256);
        try (CudaDeviceBuffer target = (CudaDeviceBuffer) producer.allocate(targetBytes);
             CudaMappedBuffer out = (CudaMappedBuffer) consumer.allocateMapped(4096);
             CudaStream ps = (CudaStream) producer.newStream("seqlink-probe-producer");
             CudaStream cs = (CudaStream) consumer.newStream("seqlink-probe-consumer")) {
            StringBuilder detail = new StringBuilder();
            boolean ok = pattern(target, out, ps, cs, detail);
            ok &= countedAdds(target, cs, sms, detail);
            checkDeadline(deadline, "the functional check");
            double addNs = chain(target, out, cs, "seqlink_probe_chain_add");
            double loadNs = chain(target, out, cs, "seqlink_probe_chain_load");
            checkDeadline(deadline, "the latency chains");
            List<ScalingPoint> scaling = new ArrayList<>();
            try (Timer timer = new Timer(consumer.context())) {
                for (int threads : plan.threadCounts()) {
                    for (int blocks : new int[] {1, sms}) {
                        int ops = blocks == 1 ? THROUGHPUT_OPS_ONE_BLOCK : THROUGHPUT_OPS_ALL_BLOCKS;
                        KernelLaunch k = new KernelLaunch(consumer.context(), "seqlink_probe_throughput", 8, 4);
                        try {
                            k.params.putLong(0, target.address());
                            k.params.putInt(1, ops);
                            k.launch(cs.handle(), 1, threads); // warm-up
                            double seconds = timer.time(cs, () -> k.launch(cs.handle(), blocks, threads));
                            scaling.add(new ScalingPoint(threads, blocks, (double) threads * blocks * ops / seconds));
                        } finally {
                            cs.synchronize();
                            k.release();
                        }
                        checkDeadline(deadline, "the throughput measurement at " + threads + " threads x " + blocks + " blocks");
                    }
                }
            }
            return new ProbeMeasurement(ok, detail.toString().trim(), addNs, loadNs, scaling,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
    }

    private void checkDeadline(long deadline, String step) {
        if (System.nanoTime() > deadline) {
            throw new DeviceException("CUDA_ERROR_TIMEOUT", "seqlink probe", consumer.ordinal(), false,
                    step + " ran past the probe's timeout of " + plan.timeout());
        }
    }

    private boolean pattern(CudaDeviceBuffer target, CudaMappedBuffer out, CudaStream ps, CudaStream cs, StringBuilder detail) {
        int bytes = (int) Math.min(plan.patternBytes(), target.bytes());
        long seed = 0x5EED_0000L + consumer.ordinal();
        KernelLaunch fill = new KernelLaunch(producer.context(), "seqlink_probe_fill", 8, 8, 8);
        KernelLaunch checksum = new KernelLaunch(consumer.context(), "seqlink_probe_checksum", 8, 8, 8, 8);
        try {
            fill.params.putLong(0, target.address());
            fill.params.putLong(1, bytes);
            fill.params.putLong(2, seed);
            fill.launch(ps.handle(), (int) Math.max(1, Math.min(4L * producer.context().multiprocessors(), bytes / 8192 + 1)),
                    KernelArgs.BLOCK_THREADS);
            ps.synchronize();
            out.setRelease(0, 0);
            checksum.params.putLong(0, target.address());
            checksum.params.putLong(1, bytes);
            checksum.params.putLong(2, out.address());
            checksum.params.putLong(3, 0);
            checksum.launch(cs.handle(), 1, KernelArgs.BLOCK_THREADS); // one block: no scratch line needed
            cs.synchronize();
        } finally {
            fill.release();
            checksum.release();
        }
        long sum = out.getAcquire(0);
        if (sum != FramePattern.expectedChecksum(seed, bytes)) {
            detail.append("pattern of ").append(bytes).append(" B read back corrupted (checksum ")
                    .append(Long.toHexString(sum)).append(" instead of ")
                    .append(Long.toHexString(FramePattern.expectedChecksum(seed, bytes))).append("). ");
            return false;
        }
        detail.append("pattern of ").append(bytes).append(" B read back intact. ");
        return true;
    }

    private boolean countedAdds(CudaDeviceBuffer target, CudaStream cs, int sms, StringBuilder detail) {
        int threads = 256;
        int adds = Math.max(1, plan.countedAdds());
        consumer.context().bind();
        Cu.check(JCudaDriver.cuMemsetD8Async(NativePointers.devicePointer(target.address()), (byte) 0, 8, cs.handle()),
                "cuMemsetD8Async", consumer.ordinal());
        KernelLaunch k = new KernelLaunch(consumer.context(), "seqlink_probe_counted_add", 8, 4);
        long got;
        try {
            k.params.putLong(0, target.address());
            k.params.putInt(1, adds);
            k.launch(cs.handle(), sms, threads);
            long[] host = new long[1];
            Cu.check(JCudaDriver.cuMemcpyDtoHAsync(jcuda.Pointer.to(host), NativePointers.devicePointer(target.address()),
                    8, cs.handle()), "cuMemcpyDtoHAsync", consumer.ordinal());
            cs.synchronize();
            got = host[0];
        } finally {
            cs.synchronize();
            k.release();
        }
        long expected = (long) sms * threads * adds;
        if (got != expected) {
            detail.append("counted atomic adds: ").append(got).append(" of ").append(expected).append(" arrived (")
                    .append(expected - got).append(" lost: remote adds are not atomic).");
            return false;
        }
        detail.append("counted atomic adds: all ").append(expected).append(" arrived.");
        return true;
    }

    private double chain(CudaDeviceBuffer target, CudaMappedBuffer out, CudaStream cs, String kernel) {
        int n = Math.max(1, plan.chainLength());
        KernelLaunch k = new KernelLaunch(consumer.context(), kernel, 8, 4, 8);
        try {
            k.params.putLong(0, target.address());
            k.params.putInt(1, Math.min(16, n));
            k.params.putLong(2, out.address() + 64);
            k.launch(cs.handle(), 1, 1); // warm-up: the line's translation and first touch
            cs.synchronize();
            k.params.putInt(1, n);
            k.launch(cs.handle(), 1, 1);
            cs.synchronize();
            return out.getAcquire(64) / (double) n;
        } finally {
            k.release();
        }
    }

    /** Times enqueued work with a pair of events on the work's stream. */
    private static final class Timer implements AutoCloseable {
        private final DeviceContext context;
        private final CUevent begin = new CUevent();
        private final CUevent end = new CUevent();

        Timer(DeviceContext context) {
            this.context = context;
            context.bind();
            Cu.check(JCudaDriver.cuEventCreate(begin, 0), "cuEventCreate", context.ordinal());
            Cu.check(JCudaDriver.cuEventCreate(end, 0), "cuEventCreate", context.ordinal());
        }

        double time(CudaStream stream, Runnable work) {
            context.bind();
            Cu.check(JCudaDriver.cuEventRecord(begin, stream.handle()), "cuEventRecord", context.ordinal());
            work.run();
            Cu.check(JCudaDriver.cuEventRecord(end, stream.handle()), "cuEventRecord", context.ordinal());
            Cu.check(JCudaDriver.cuEventSynchronize(end), "cuEventSynchronize", context.ordinal());
            float[] ms = new float[1];
            Cu.check(JCudaDriver.cuEventElapsedTime(ms, begin, end), "cuEventElapsedTime", context.ordinal());
            return Math.max(1e-9, ms[0] / 1e3);
        }

        @Override
        public void close() {
            context.bind();
            JCudaDriver.cuEventDestroy(begin);
            JCudaDriver.cuEventDestroy(end);
        }
    }
}
