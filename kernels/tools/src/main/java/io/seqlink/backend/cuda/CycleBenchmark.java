package io.seqlink.backend.cuda;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.backend.Backend;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PatternKernels;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.bench.BenchWork;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import io.seqlink.report.LatencyHistogram;
import io.seqlink.report.Percentiles;
import io.seqlink.report.ReportJson;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Java side of the comparison with {@code seqlink-cycle-bench}: the same publish -> consume -> ack
 * cycle, step for step, through the backend SPI (what the channel layer drives), so the two differ
 * only in the launch path. Prints one JSON document like the C++ comparator's ({@code "impl":"java-spi"}),
 * written by Jackson from the records below.
 *
 * <pre>
 * java -cp ... io.seqlink.backend.cuda.CycleBenchmark [--mode cycle|throughput|wait-value|cycle-channel|all]
 *      [--sizes 64,16384,1048576] [--frames N] [--warmup N] [--slots N] [--producer D] [--consumer D]
 * </pre>
 * Per frame (cycle, reported as mode {@code channel} like the C++ row): fill the slot (kernel), commit its
 * length into the pinned staging ring (a host store, as {@code commitDevice} does), publish (kernel, which
 * copies the length); the host sees the mirror; consume (kernel, copy mode), checksum (kernel), ack
 * (kernel); the host sees the ack.
 * Every frame's checksum up to 64 KiB (every 16th above) is compared with {@link FramePattern}.
 * {@code alloc_bytes_per_frame} is what the measuring thread allocated per timed frame. Mode
 * {@code cycle-channel} runs the same cycle through the public channel API instead (no C++ twin).
 */
public final class CycleBenchmark {

    private final String mode;
    private final long[] sizes;
    private final int frames;
    private final int warmup;
    private final int slots;
    private final int producer;
    private final int consumer;
    private final List<Object> results = new ArrayList<>();
    private boolean ok = true;

    private CycleBenchmark(String[] args) {
        String m = "all";
        String s = "64,16384,1048576";
        long f = 20000;
        long w = 1000;
        long sl = 64;
        long p = 0;
        long c = -1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            if (v == null && !a.equals("--short")) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            switch (a) {
                case "--mode" -> m = v;
                case "--sizes" -> s = v;
                case "--frames" -> f = BenchSupport.parseLong(a, v);
                case "--warmup" -> w = BenchSupport.parseLong(a, v);
                case "--slots" -> sl = BenchSupport.parseLong(a, v);
                case "--producer" -> p = BenchSupport.parseLong(a, v);
                case "--consumer" -> c = BenchSupport.parseLong(a, v);
                case "--short" -> {
                    f = 2000;
                    w = 200;
                    i--;
                }
                default -> throw new IllegalArgumentException("unknown option '" + a + "'; see CycleBenchmark's javadoc");
            }
            i++;
        }
        this.mode = m;
        String[] parts = s.split(",");
        this.sizes = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            sizes[i] = BenchSupport.parseLong("--sizes", parts[i].trim());
        }
        this.frames = (int) f;
        this.warmup = (int) w;
        this.slots = (int) sl;
        this.producer = (int) p;
        this.consumer = (int) c;
    }

    public static void main(String[] args) {
        CycleBenchmark b = new CycleBenchmark(args);
        int rc = b.run();
        System.exit(rc);
    }

    private int run() {
        CudaBackendProvider provider = new CudaBackendProvider();
        var detection = provider.detect();
        if (!detection.usable()) {
            System.err.println("CycleBenchmark: no usable CUDA driver: " + detection.summary());
            return 2;
        }
        try (Backend backend = provider.open()) {
            int c = consumer >= 0 ? consumer : (backend.deviceCount() > 1 ? 1 : 0);
            for (long size : sizes) {
                if (mode.equals("all") || mode.equals("cycle")) {
                    cycle(backend, c, size, false);
                }
                if (mode.equals("all") || mode.equals("wait-value")) {
                    cycle(backend, c, size, true);
                }
                if (mode.equals("all") || mode.equals("throughput")) {
                    throughput(backend, c, size);
                }
                if (mode.equals("all") || mode.equals("cycle-channel")) {
                    channelCycle(c, size);
                }
                System.err.println("CycleBenchmark: " + size + " B done");
            }
            System.out.print(ReportJson.writeSnakeCase(new Document("seqlink-cycle-bench", "java-spi", 1,
                    new Config(mode, frames, warmup, slots), new DeviceInfo(producer, c, backend.description(), producer == c), ok,
                    results)));
        }
        return ok ? 0 : 1;
    }

    /** The JSON document, in the C++ comparator's shape. */
    record Document(String tool, String impl, int version, Config config, DeviceInfo device, boolean ok, List<Object> results) {
    }

    record Config(String mode, int frames, int warmup, int slots) {
    }

    record DeviceInfo(int producer, int consumer, String description, boolean sameDevice) {
    }

    /** One size's frame-at-a-time cycle ({@code cycle}, {@code wait-value}, {@code cycle-channel}). */
    record CycleRow(String mode, String kind, String impl, long frameBytes, int frames, Percentiles latencyUs, long verified, long corrupt,
            double allocBytesPerFrame) {
    }

    /** One size's pipelined run. */
    record ThroughputRow(String mode, String kind, String impl, long frameBytes, long frames, double seconds, double framesPerS, double gbPerS,
            long verified, long corrupt) {
    }

    /** The resources of one SPI-level channel, as the channel layer would bind them. */
    private final class Rig implements AutoCloseable {
        final RingGeometry g;
        final Device pd;
        final Device cd;
        final DeviceBuffer control;
        final DeviceBuffer ring;
        final MappedBuffer mirror;
        final MappedBuffer staging;
        final DeviceStream ps;
        final DeviceStream cs;
        final DeviceBuffer block;
        final MappedBuffer cmirror;
        final DeviceBuffer local;
        final MappedBuffer results;
        final PublishKernel publish;
        final ConsumeKernel consume;
        final AckKernel ack;
        final PatternKernels pw;
        final PatternKernels cw;
        final int maxBatch;

        Rig(Backend backend, int c, long size) {
            g = RingGeometry.of(slots, size);
            maxBatch = Math.min(16, slots - 1);
            pd = backend.device(producer);
            cd = backend.device(c);
            backend.enablePeerAccess(c, producer);
            control = pd.allocate(ControlBlock.BYTES);
            ring = pd.allocate(g.ringBytes());
            mirror = pd.allocateMapped(ControlBlock.BYTES);
            staging = pd.allocateMapped(g.ringBytes());
            ps = pd.newStream("bench-producer");
            cs = cd.newStream("bench-consumer");
            block = cd.allocate(ConsumerBlock.BYTES);
            cmirror = cd.allocateMapped(ConsumerBlock.BYTES);
            local = cd.allocate(g.ringBytes());
            results = cd.allocateMapped(8 * 1024);
            publish = ps.bindPublish(new PublishBinding(control, ring, g, mirror, maxBatch, List.of(), staging));
            consume = cs.bindConsume(new ConsumeBinding(control, ring, g, maxBatch, local, block, cmirror, false));
            ack = cs.bindAck(new AckBinding(block, cmirror));
            pw = BenchWork.on(ps);
            cw = BenchWork.on(cs);
        }

        void produce(long s, long length) {
            pw.fill(ring, g.payloadOffsetOf(s), length, s);
            staging.setPlain(g.offsetOf(s) + SlotHeader.LENGTH, length); // commitDevice: no driver call
            publish.enqueue(1);
        }

        void consume(long from, long to, long length, long round) {
            consume.enqueue(from, to, round);
            for (long s = from; s <= to; s++) {
                cw.checksum(local, g.payloadOffsetOf(s), length, results, 8 * (s % 1024));
            }
            ack.enqueue(to);
        }

        boolean verify(long s, long length) {
            return results.getAcquire(8 * (s % 1024)) == FramePattern.expectedChecksum(s, (int) length);
        }

        @Override
        public void close() {
            ps.close();
            cs.close();
            for (AutoCloseable m : new AutoCloseable[] {control, ring, mirror, staging, block, cmirror, local, results}) {
                try {
                    m.close();
                } catch (Exception ignored) {
                    // closing a benchmark's memory cannot fail in a way worth reporting
                }
            }
        }
    }

    /** Frames above 64 KiB take far longer to verify than to move: fewer of them (as the C++ comparator). */
    private int framesFor(long size) {
        return size > 65536 ? Math.min(frames, 2000) : frames;
    }

    /** Checks the checksums of the last 1,024 frames (those {@link #checked} selects): {verified, corrupt}. */
    private static long[] verifyLast(Rig r, long total, long size) {
        long[] counts = new long[2];
        for (long s = Math.max(1, total - 1023); s <= total; s++) {
            if (checked(s, size)) {
                counts[r.verify(s, size) ? 0 : 1]++;
            }
        }
        return counts;
    }

    private static boolean checked(long s, long size) {
        return size <= 65536 || s % 16 == 0;
    }

    private void cycle(Backend backend, int c, long size, boolean waitValue) {
        try (Rig r = new Rig(backend, c, size)) {
            int frames = framesFor(size);
            LatencyHistogram lat = new LatencyHistogram();
            long verified = 0;
            long corrupt = 0;
            long total = (long) warmup + frames;
            long allocStart = 0;
            CudaStream cs = (CudaStream) r.cs;
            for (long s = 1; s <= total; s++) {
                if (s == warmup + 1) {
                    lat.reset();
                    allocStart = BenchSupport.allocatedBytes();
                }
                if (waitValue) {
                    cs.waitValueAtLeast(r.mirror, ControlBlock.PUBLISH_SEQ, s);
                    r.consume(s, s, size, s);
                }
                long t0 = System.nanoTime();
                r.produce(s, size);
                if (!waitValue) {
                    BenchSupport.awaitAtLeast(r.mirror, ControlBlock.PUBLISH_SEQ, s, "publish_seq mirror");
                    r.consume(s, s, size, s);
                }
                BenchSupport.awaitAtLeast(r.cmirror, ConsumerBlock.CONSUMED_SEQ, s, "consumed_seq mirror");
                long t1 = System.nanoTime();
                lat.record(t1 - t0);
            }
            long alloc = BenchSupport.allocatedBytes() - allocStart;
            long[] tail = verifyLast(r, total, size);
            verified += tail[0];
            corrupt += tail[1];
            if (corrupt > 0) {
                ok = false;
            }
            results.add(new CycleRow(waitValue ? "wait-value" : "channel", "latency", "java-spi", size, frames, lat.percentiles(),
                    verified, corrupt, allocStart < 0 ? -1.0 : alloc / (double) frames));
        }
    }

    private void throughput(Backend backend, int c, long size) {
        try (Rig r = new Rig(backend, c, size)) {
            long total = 4L * framesFor(size);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long start = System.nanoTime();
            Thread prod = new Thread(() -> {
                try {
                    for (long s = 1; s <= total; s++) {
                        if (s > slots) {
                            BenchSupport.awaitAtLeast(r.cmirror, ConsumerBlock.CONSUMED_SEQ, s - slots, "ack (backpressure)");
                        }
                        r.produce(s, size);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "bench-producer");
            Thread cons = new Thread(() -> {
                try {
                    long next = 1;
                    while (next <= total && failure.get() == null) {
                        long pub = r.mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
                        if (pub < next) {
                            Thread.onSpinWait();
                            continue;
                        }
                        long to = Math.min(pub, next + r.maxBatch - 1);
                        r.consume(next, to, size, to);
                        next = to + 1;
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "bench-consumer");
            prod.start();
            cons.start();
            join(prod);
            join(cons);
            if (failure.get() != null) {
                throw new IllegalStateException("throughput run failed", failure.get());
            }
            BenchSupport.awaitAtLeast(r.cmirror, ConsumerBlock.CONSUMED_SEQ, total, "final ack");
            double seconds = (System.nanoTime() - start) / 1e9;
            long verified = 0;
            long corrupt = 0;
            long[] tail = verifyLast(r, total, size);
            verified += tail[0];
            corrupt += tail[1];
            if (corrupt > 0) {
                ok = false;
            }
            results.add(new ThroughputRow("channel", "throughput", "java-spi", size, total, seconds, total / seconds,
                    total * (double) size / seconds / 1e9, verified, corrupt));
        }
    }

    /**
     * The cycle through the public channel API on a runtime of its own: claim, fill on the producer
     * stream, commitDevice, publish; the consumer port polled by this thread with a device listener
     * that checksums each frame on the consumer stream; the ack. What a user's code pays.
     */
    private void channelCycle(int c, long size) {
        try (io.seqlink.SeqlinkRuntime rt = io.seqlink.SeqlinkRuntime.builder()
                .backend(io.seqlink.backend.BackendSelection.CUDA).open()) {
            io.seqlink.channel.PublishChannel ch = rt.openChannel(io.seqlink.channel.ChannelSpec.builder("cycle-bench")
                    .producer(producer).consumers(c).slots(slots).slotBytes(size).build());
            io.seqlink.channel.ConsumerPort port = ch.consumer(c);
            MappedBuffer sums = rt.backend().device(c).allocateMapped(8 * 1024);
            port.subscribeDevice(frames -> {
                for (long s = frames.first(); s <= frames.last(); s++) {
                    BenchWork.on(frames.stream()).checksum(frames.memory(), frames.payloadOffset(s), size, sums, 8 * (s % 1024));
                }
            });
            int frames = framesFor(size);
            LatencyHistogram lat = new LatencyHistogram();
            long total = (long) warmup + frames;
            long allocStart = 0;
            for (long i = 1; i <= total; i++) {
                if (i == warmup + 1) {
                    lat.reset();
                    allocStart = BenchSupport.allocatedBytes();
                }
                long t0 = System.nanoTime();
                long seq = ch.tryClaim();
                if (seq <= 0) {
                    throw new IllegalStateException("claim returned status " + seq + ": " + ch.snapshot());
                }
                BenchWork.on(ch.producerStream()).fill(ch.ring(), ch.payloadOffset(seq), size, seq);
                ch.commitDevice((int) size);
                ch.publish();
                while (port.poll(1) == 0) {
                    Thread.onSpinWait();
                }
                while (port.acknowledged() < seq) {
                    Thread.onSpinWait();
                }
                lat.record(System.nanoTime() - t0);
            }
            long alloc = BenchSupport.allocatedBytes() - allocStart;
            long verified = 0;
            long corrupt = 0;
            for (long s = Math.max(1, total - 1023); s <= total; s++) {
                if (checked(s, size)) {
                    if (sums.getAcquire(8 * (s % 1024)) == FramePattern.expectedChecksum(s, (int) size)) {
                        verified++;
                    } else {
                        corrupt++;
                    }
                }
            }
            if (corrupt > 0) {
                ok = false;
            }
            results.add(new CycleRow("cycle-channel", "latency", "java-channel-api", size, frames, lat.percentiles(), verified,
                    corrupt,
                    allocStart < 0 ? -1.0 : alloc / (double) frames));
            sums.close();
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
