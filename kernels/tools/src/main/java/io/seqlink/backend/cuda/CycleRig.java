package io.seqlink.backend.cuda;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.backend.Backend;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PatternKernels;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.bench.BenchWork;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.util.List;

/**
 * One channel bound at the backend SPI as the channel layer binds it (control block, ring, host mirror and
 * staging lengths on the producer; consumer block, its mirror and a local ring on the consumer), with the
 * frame's steps of {@link CycleBenchmark}: {@link #produce} (fill kernel, the length into the staging ring as
 * {@code commitDevice} stores it, publish step) and {@link #consume} (consume step, a checksum kernel per frame
 * as a device listener enqueues it, ack step). {@link #produce} belongs to one thread and {@link #consume} to
 * one thread (they may differ); closing is the owner's, after both are done.
 */
final class CycleRig implements AutoCloseable {

    final RingGeometry g;
    final int maxBatch;
    final MappedBuffer mirror;
    final DeviceStream cs;
    final MappedBuffer cmirror;
    private final DeviceBuffer control;
    private final DeviceBuffer ring;
    private final MappedBuffer staging;
    private final DeviceStream ps;
    private final DeviceBuffer block;
    private final DeviceBuffer local;
    private final MappedBuffer results;
    private final PublishKernel publish;
    private final ConsumeKernel consume;
    private final AckKernel ack;
    private final PatternKernels pw;
    private final PatternKernels cw;

    CycleRig(Backend backend, int producer, int consumer, int slots, long size) {
        g = RingGeometry.of(slots, size);
        maxBatch = Math.min(16, slots - 1);
        Device pd = backend.device(producer);
        Device cd = backend.device(consumer);
        backend.enablePeerAccess(consumer, producer);
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

    /** The checksums of the last 1,024 frames ({@link BenchReport#checked} ones) against the pattern. */
    long[] verifyLast(long total, long size) {
        return BenchReport.verifySums(results, total, size);
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
