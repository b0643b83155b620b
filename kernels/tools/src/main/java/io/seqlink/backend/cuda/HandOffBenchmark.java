package io.seqlink.backend.cuda;

import io.seqlink.backend.Backend;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PatternKernels;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.bench.BenchWork;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.report.LatencyHistogram;
import io.seqlink.report.Percentiles;
import io.seqlink.report.ReportJson;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.JCudaDriver;

/**
 * The Java rows of issue 12's harness beside {@code seqlink-cycle-bench}'s, same names, same work (the
 * pattern filled on the producer side, copied to the consumer side, checksummed there), launched from
 * Java: the naive hand-offs ({@code naive-1s}, {@code naive-2s} and their {@code -async} throughput
 * forms) and the floor's mechanism through the user-kernel API ({@code floor}: a producer kernel that
 * publishes at its end, a consumer kernel pre-armed behind a stream wait on the device
 * {@code publish_seq}; {@code floor-pipelined} and {@code floor-batched}). Prints one JSON document
 * ({@code "impl":"java-spi"}).
 *
 * <pre>
 * java -cp ... io.seqlink.backend.cuda.HandOffBenchmark [--mode latency|throughput|all] [--sizes 16384,1048576]
 *      [--frames N] [--warmup N] [--slots N] [--depth N] [--batch N]
 * </pre>
 */
public final class HandOffBenchmark {

    private static final int RESULT_WORDS = 1032;
    private static final int FOLD_WORDS = 64;

    private String mode = "all";
    private long[] sizes = {16384, 1 << 20};
    private int frames = 20000;
    private int warmup = 1000;
    private int slots = 64;
    private int depth = 4;
    private int batch = 16;
    private final List<Object> results = new ArrayList<>();
    private boolean ok = true;

    public static void main(String[] args) {
        HandOffBenchmark b = new HandOffBenchmark();
        b.parse(args);
        System.exit(b.run());
    }

    private void parse(String[] args) {
        for (int i = 0; i < args.length; i += 2) {
            String a = args[i];
            if (a.equals("--short")) {
                frames = 2000;
                warmup = 200;
                i--;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String v = args[i + 1];
            switch (a) {
                case "--mode" -> mode = v;
                case "--sizes" -> sizes = java.util.Arrays.stream(v.split(",")).mapToLong(x -> BenchSupport.parseLong(a, x.trim())).toArray();
                case "--frames" -> frames = (int) BenchSupport.parseLong(a, v);
                case "--warmup" -> warmup = (int) BenchSupport.parseLong(a, v);
                case "--slots" -> slots = (int) BenchSupport.parseLong(a, v);
                case "--depth" -> depth = (int) BenchSupport.parseLong(a, v);
                case "--batch" -> batch = (int) BenchSupport.parseLong(a, v);
                default -> throw new IllegalArgumentException("unknown option '" + a + "'; see HandOffBenchmark's javadoc");
            }
        }
    }

    private int run() {
        CudaBackendProvider provider = new CudaBackendProvider();
        if (!provider.detect().usable()) {
            System.err.println("HandOffBenchmark: no usable CUDA driver: " + provider.detect().summary());
            return 2;
        }
        try (Backend backend = provider.open()) {
            for (long size : sizes) {
                if (mode.equals("all") || mode.equals("latency")) {
                    naiveLatency(backend, size, false);
                    naiveLatency(backend, size, true);
                    floorLatency(backend, size);
                }
                if (mode.equals("all") || mode.equals("throughput")) {
                    naiveThroughput(backend, size, false);
                    naiveThroughput(backend, size, true);
                    floorThroughput(backend, size, 1, "floor-pipelined");
                    floorThroughput(backend, size, batch, "floor-batched");
                    floorThroughput(backend, size, Math.min(48, slots / 2), "floor-batched-large");
                }
                System.err.println("HandOffBenchmark: " + size + " B done");
            }
            System.out.print(ReportJson.writeSnakeCase(new Document("seqlink-handoff-bench", "java-spi", 1,
                    new Config(mode, frames, warmup, slots, depth, batch), new DeviceInfo(backend.description()), ok, results)));
        }
        return ok ? 0 : 1;
    }

    private int framesFor(long size) {
        return size > 65536 ? Math.min(frames, 2000) : frames;
    }

    private static boolean checked(long s, long size) {
        return size <= 65536 || s % 16 == 0;
    }

    /** One device, two streams, a ring of the frame's shape on each side, checksum words, the fused kernels. */
    private final class Rig implements AutoCloseable {
        final RingGeometry g;
        final CudaDevice d;
        final CudaStream ps;
        final CudaStream cs;
        final DeviceBuffer ring;
        final DeviceBuffer local;
        final MappedBuffer results;
        final PatternKernels pw;
        final PatternKernels cw;
        final int sms;
        final List<AutoCloseable> owned = new ArrayList<>();

        Rig(Backend backend, long size) {
            g = RingGeometry.of(slots, size);
            d = (CudaDevice) backend.device(0);
            sms = d.multiprocessors();
            ps = own((CudaStream) d.newStream("handoff-producer"));
            cs = own((CudaStream) d.newStream("handoff-consumer"));
            ring = own(d.allocate(g.ringBytes()));
            local = own(d.allocate(g.ringBytes()));
            results = own(d.allocateMapped(8L * RESULT_WORDS));
            pw = BenchWork.on(ps);
            cw = BenchWork.on(cs);
        }

        <T extends AutoCloseable> T own(T r) {
            owned.add(r);
            return r;
        }

        int gridFor(long bytes) {
            return (int) Math.max(1, Math.min(8L * sms, (bytes + 8191) / 8192));
        }

        long result(long s) {
            return results.getAcquire(8 * (s % 1024));
        }

        @Override
        public void close() {
            for (int i = owned.size() - 1; i >= 0; i--) {
                try {
                    owned.get(i).close();
                } catch (Exception ignored) {
                    // a benchmark's memory and streams cannot fail to close in a way worth reporting
                }
            }
        }
    }

    /** The checksums of the last 1,024 frames ({@link #checked} ones) against the pattern: {verified, corrupt}. */
    private long[] verifyLast(Rig r, long total, long size) {
        long[] counts = new long[2];
        for (long s = Math.max(1, total - 1023); s <= total; s++) {
            if (checked(s, size)) {
                counts[r.result(s) == FramePattern.expectedChecksum(s, (int) size) ? 0 : 1]++;
            }
        }
        ok &= counts[1] == 0;
        return counts;
    }

    /** The JSON document: the same members as the C++ comparator's, written by Jackson. */
    record Document(String tool, String impl, int version, Config config, DeviceInfo device, boolean ok, List<Object> results) {
    }

    record Config(String mode, int frames, int warmup, int slots, int depth, int batch) {
    }

    record DeviceInfo(String description) {
    }

    record LatencyRow(String mode, String kind, String impl, long frameBytes, int frames, Percentiles latencyUs, long verified,
            long corrupt) {
    }

    record ThroughputRow(String mode, String kind, String impl, long frameBytes, long frames, int batch, double seconds,
            double framesPerS, double gbPerS, long verified, long corrupt) {
    }

    private void latencyRow(String name, long size, long[] lat, int n, Rig r, long total) {
        long[] v = verifyLast(r, total, size);
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < n; i++) {
            h.record(lat[i]);
        }
        results.add(new LatencyRow(name, "latency", "java-spi", size, n, h.percentiles(), v[0], v[1]));
    }

    private void throughputRow(String name, long size, long total, double seconds, Rig r, int rowBatch) {
        long[] v = verifyLast(r, total, size);
        results.add(new ThroughputRow(name, "throughput", "java-spi", size, total, rowBatch, seconds, total / seconds,
                total * (double) size / seconds / 1e9, v[0], v[1]));
    }

    /** fill + copy + checksum + synchronize per frame: on one stream, or across two with an event. */
    private void naiveLatency(Backend backend, long size, boolean twoStreams) {
        try (Rig r = new Rig(backend, size)) {
            CUevent copied = event(r);
            int n = framesFor(size);
            long total = (long) warmup + n;
            long[] lat = new long[n];
            for (long s = 1; s <= total; s++) {
                long t0 = System.nanoTime();
                CudaStream fillStream = twoStreams ? r.ps : r.cs;
                (twoStreams ? r.pw : r.cw).fill(r.ring, r.g.payloadOffsetOf(s), size, s);
                fillStream.copy(r.ring, r.g.payloadOffsetOf(s), r.local, r.g.payloadOffsetOf(s), size);
                if (twoStreams) {
                    record(copied, r.ps);
                    waitFor(copied, r.cs);
                }
                r.cw.checksum(r.local, r.g.payloadOffsetOf(s), size, r.results, 8 * (s % 1024));
                r.cs.synchronize();
                if (s > warmup) {
                    lat[(int) (s - warmup - 1)] = System.nanoTime() - t0;
                }
            }
            latencyRow(twoStreams ? "naive-2s" : "naive-1s", size, lat, n, r, total);
        }
    }

    private void naiveThroughput(Backend backend, long size, boolean twoStreams) {
        try (Rig r = new Rig(backend, size)) {
            CUevent[] copied = new CUevent[slots];
            CUevent[] checked = new CUevent[slots];
            for (int i = 0; i < slots; i++) {
                copied[i] = event(r);
                checked[i] = event(r);
            }
            long total = 4L * framesFor(size);
            long start = System.nanoTime();
            for (long s = 1; s <= total; s++) {
                int i = (int) ((s - 1) % slots);
                long at = r.g.payloadOffsetOf(s);
                if (twoStreams) {
                    if (s > slots) {
                        waitFor(checked[i], r.ps); // the slot's last checksum is done
                    }
                    r.pw.fill(r.ring, at, size, s);
                    r.ps.copy(r.ring, at, r.local, at, size);
                    record(copied[i], r.ps);
                    waitFor(copied[i], r.cs);
                    r.cw.checksum(r.local, at, size, r.results, 8 * (s % 1024));
                    record(checked[i], r.cs);
                } else {
                    r.cw.fill(r.ring, at, size, s);
                    r.cs.copy(r.ring, at, r.local, at, size);
                    r.cw.checksum(r.local, at, size, r.results, 8 * (s % 1024));
                }
            }
            r.cs.synchronize();
            throughputRow(twoStreams ? "naive-2s-async" : "naive-1s-async", size, total, (System.nanoTime() - start) / 1e9, r, 1);
        }
    }

    /** The floor's channel: publish and consume steps bound only for their handles, the fused kernels launched. */
    private final class Floor implements AutoCloseable {
        final Rig r;
        final DeviceBuffer control;
        final MappedBuffer cmirror;
        final DeviceBuffer folds;
        final PublishKernel publish;
        final ConsumeKernel consume;
        final KernelCall produce;
        final KernelCall take;

        Floor(Rig r) {
            this.r = r;
            Device d = r.d;
            control = r.own(d.allocate(ControlBlock.BYTES));
            MappedBuffer mirror = r.own(d.allocateMapped(ControlBlock.BYTES));
            cmirror = r.own(d.allocateMapped(ConsumerBlock.BYTES));
            folds = r.own(d.allocate(8L * FOLD_WORDS));
            publish = r.ps.bindPublish(new PublishBinding(control, r.ring, r.g, mirror, Math.min(64, slots - 1), List.of()));
            consume = r.cs.bindConsume(new ConsumeBinding(control, r.ring, r.g, Math.min(64, slots - 1), r.local,
                    r.own(d.allocate(ConsumerBlock.BYTES)), cmirror, false));
            // arguments are set where the calls launch (the producer's thread, the consumer's): a call belongs
            // to the thread that sets it up until it launches
            produce = r.ps.bindKernel(BenchWork.MODULE, "fp_produce", KernelParam.PUBLISH_HANDLES, KernelParam.U64, KernelParam.U64);
            take = r.cs.bindKernel(BenchWork.MODULE, "fp_consume", KernelParam.CONSUME_HANDLES, KernelParam.U64, KernelParam.U64,
                    KernelParam.POINTER, KernelParam.POINTER, KernelParam.POINTER);
        }

        /** Pre-arms the consumer round of frames from..to behind a stream wait on the device publish_seq. */
        void arm(long from, long to, long size) {
            r.cs.waitValueAtLeast(control, ControlBlock.PUBLISH_SEQ, to);
            take.consumeHandles(0, consume).u64(1, from).u64(2, to).pointer(3, r.local, 0).pointer(4, r.results, 0)
                    .pointer(5, folds, 0).launch(r.gridFor((to - from + 1) * (size + 64)), 256);
        }

        void produce(int count, long size) {
            produce.publishHandles(0, publish).u64(1, count).u64(2, size).launch(r.gridFor(count * size), 256);
        }

        @Override
        public void close() {
            // the rig owns the memory
        }
    }

    private void floorLatency(Backend backend, long size) {
        try (Rig r = new Rig(backend, size); Floor f = new Floor(r)) {
            int n = framesFor(size);
            long total = (long) warmup + n;
            long[] lat = new long[n];
            for (long s = 1; s <= total; s++) {
                f.arm(s, s, size);
                long t0 = System.nanoTime();
                f.produce(1, size);
                BenchSupport.awaitAtLeast(f.cmirror, ConsumerBlock.CONSUMED_SEQ, s, "ack");
                if (s > warmup) {
                    lat[(int) (s - warmup - 1)] = System.nanoTime() - t0;
                }
            }
            latencyRow("floor", size, lat, n, r, total);
        }
    }

    private void floorThroughput(Backend backend, long size, int rowBatch, String name) {
        try (Rig r = new Rig(backend, size); Floor f = new Floor(r)) {
            long total = (4L * framesFor(size) + rowBatch - 1) / rowBatch * rowBatch;
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long start = System.nanoTime();
            Thread producer = new Thread(() -> {
                try {
                    for (long s = 1; s <= total; s += rowBatch) {
                        long last = s + rowBatch - 1;
                        if (last > slots) {
                            BenchSupport.awaitAtLeast(f.cmirror, ConsumerBlock.CONSUMED_SEQ, last - slots, "ack (backpressure)");
                        }
                        f.produce(rowBatch, size);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "handoff-producer");
            producer.start();
            try {
                for (long s = 1; s <= total && failure.get() == null; s += rowBatch) {
                    long last = s + rowBatch - 1;
                    if (last > (long) depth * rowBatch) {
                        BenchSupport.awaitAtLeast(f.cmirror, ConsumerBlock.CONSUMED_SEQ, last - (long) depth * rowBatch, "ack (depth)");
                    }
                    f.arm(s, last, size);
                }
            } finally {
                join(producer);
            }
            if (failure.get() != null) {
                throw new IllegalStateException(name + " failed", failure.get());
            }
            BenchSupport.awaitAtLeast(f.cmirror, ConsumerBlock.CONSUMED_SEQ, total, "final ack");
            throughputRow(name, size, total, (System.nanoTime() - start) / 1e9, r, rowBatch);
        }
    }

    private static CUevent event(Rig r) {
        r.d.context().bind();
        CUevent e = new CUevent();
        Cu.check(JCudaDriver.cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate", 0);
        r.owned.add(() -> JCudaDriver.cuEventDestroy(e));
        return e;
    }

    private static void record(CUevent e, CudaStream s) {
        Cu.check(JCudaDriver.cuEventRecord(e, s.handle()), "cuEventRecord", 0);
    }

    private static void waitFor(CUevent e, CudaStream s) {
        Cu.check(JCudaDriver.cuStreamWaitEvent(s.handle(), e, 0), "cuStreamWaitEvent", 0);
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
