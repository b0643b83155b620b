package io.seqlink.backend.cuda;

import io.seqlink.backend.Backend;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.bench.BenchWork;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The floor's rows of {@link HandOffBenchmark}, launched from Java through the user-kernel API: a producer kernel
 * that publishes at its end ({@code fp_produce}, the device header's {@code publish_at_end}), and a fused consumer
 * kernel ({@code fp_consume}: the acquire read, copy + checksum, the ack at its end) pre-armed behind a stream wait
 * on the device {@code publish_seq}. {@code floor} has one frame in flight; {@code floor-pipelined} keeps
 * {@code depth} rounds armed ahead; {@code floor-batched} moves {@code batch} frames per kernel. Runs on the
 * benchmark's main thread, with one producer thread of its own in the throughput rows.
 */
final class FloorRows {

    private static final int FOLD_WORDS = 64;

    private final HandOffBenchmark.Settings settings;
    private final BenchReport report;

    FloorRows(HandOffBenchmark.Settings settings, BenchReport report) {
        this.settings = settings;
        this.report = report;
    }

    /**
     * The floor's channel: publish and consume steps bound only for their handles, and the two fused kernels,
     * their fixed arguments set here and handed over (a row launches them from the thread it chooses).
     */
    private static final class Floor {
        final HandOffRig r;
        final DeviceBuffer control;
        final MappedBuffer cmirror;
        final KernelCall produce;
        final KernelCall take;

        Floor(HandOffRig r) {
            this.r = r;
            int maxBatch = Math.min(64, r.slots - 1);
            control = r.own(r.d.allocate(ControlBlock.BYTES));
            MappedBuffer mirror = r.own(r.d.allocateMapped(ControlBlock.BYTES));
            cmirror = r.own(r.d.allocateMapped(ConsumerBlock.BYTES));
            DeviceBuffer folds = r.own(r.d.allocate(8L * FOLD_WORDS));
            PublishKernel publish = r.ps.bindPublish(new PublishBinding(control, r.ring, r.g, mirror, maxBatch, List.of()));
            ConsumeKernel consume = r.cs.bindConsume(new ConsumeBinding(control, r.ring, r.g, maxBatch, r.local,
                    r.own(r.d.allocate(ConsumerBlock.BYTES)), cmirror, false));
            produce = r.ps.bindKernel(BenchWork.MODULE, "fp_produce", KernelParam.PUBLISH_HANDLES, KernelParam.U64, KernelParam.U64)
                    .publishHandles(0, publish).handOver();
            take = r.cs.bindKernel(BenchWork.MODULE, "fp_consume", KernelParam.CONSUME_HANDLES, KernelParam.U64, KernelParam.U64,
                    KernelParam.POINTER, KernelParam.POINTER, KernelParam.POINTER)
                    .consumeHandles(0, consume).pointer(3, r.local, 0).pointer(4, r.results, 0).pointer(5, folds, 0).handOver();
        }

        /** Pre-arms the consumer round of frames from..to behind a stream wait on the device publish_seq. */
        void arm(long from, long to, long size) {
            r.cs.waitValueAtLeast(control, ControlBlock.PUBLISH_SEQ, to);
            take.u64(1, from).u64(2, to).launch(r.gridFor((to - from + 1) * (size + 64)), 256);
        }

        void produce(int count, long size) {
            produce.u64(1, count).u64(2, size).launch(r.gridFor(count * size), 256);
        }
    }

    void latency(Backend backend, long size) {
        try (HandOffRig r = new HandOffRig(backend, settings.slots(), size)) {
            Floor f = new Floor(r);
            int n = BenchReport.framesFor(settings.frames(), size);
            BenchReport.Timed timed = BenchReport.timeFrames(settings.warmup(), n, s -> f.arm(s, s, size), s -> {
                f.produce(1, size);
                BenchSupport.awaitAtLeast(f.cmirror, ConsumerBlock.CONSUMED_SEQ, s, "ack");
            });
            report.latency("floor", size, n, timed, r.verifyLast((long) settings.warmup() + n, size));
        }
    }

    void throughput(Backend backend, long size, int batch, String name) {
        try (HandOffRig r = new HandOffRig(backend, settings.slots(), size)) {
            Floor f = new Floor(r);
            int slots = settings.slots();
            long depth = settings.depth();
            long total = (4L * BenchReport.framesFor(settings.frames(), size) + batch - 1) / batch * batch;
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long start = System.nanoTime();
            Thread producer = new Thread(() -> {
                try {
                    for (long s = 1; s <= total; s += batch) {
                        long last = s + batch - 1;
                        if (last > slots) {
                            BenchSupport.awaitAtLeast(f.cmirror, ConsumerBlock.CONSUMED_SEQ, last - slots, "ack (backpressure)");
                        }
                        f.produce(batch, size);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "handoff-producer");
            producer.start();
            try {
                for (long s = 1; s <= total && failure.get() == null; s += batch) {
                    long last = s + batch - 1;
                    if (last > depth * batch) {
                        BenchSupport.awaitAtLeast(f.cmirror, ConsumerBlock.CONSUMED_SEQ, last - depth * batch, "ack (depth)");
                    }
                    f.arm(s, last, size);
                }
            } finally {
                BenchReport.join(producer);
            }
            if (failure.get() != null) {
                throw new IllegalStateException(name + " failed", failure.get());
            }
            BenchSupport.awaitAtLeast(f.cmirror, ConsumerBlock.CONSUMED_SEQ, total, "final ack");
            report.throughput(name, size, total, batch, (System.nanoTime() - start) / 1e9, r.verifyLast(total, size));
        }
    }
}
