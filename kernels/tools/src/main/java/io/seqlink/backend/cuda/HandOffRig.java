package io.seqlink.backend.cuda;

import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PatternKernels;
import io.seqlink.bench.BenchWork;
import io.seqlink.layout.RingGeometry;
import java.util.ArrayList;
import java.util.List;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.JCudaDriver;

/**
 * One device, two streams, a ring of the frame's shape on each side (the producer's {@code ring}, the consumer's
 * {@code local}), a checksum word per frame in pinned memory, the pattern kernels on both streams, and events:
 * what every row of {@link HandOffBenchmark} works on. Owns what it allocates and frees it at close, events
 * and streams first. Used by the benchmark's threads as each row says.
 *
 * <pre>
 *   results (pinned): word s % 1024 = checksum of frame s, written by the consumer's kernels
 * </pre>
 */
final class HandOffRig implements AutoCloseable {

    static final int RESULT_WORDS = 1032;

    final RingGeometry g;
    final int slots;
    final CudaDevice d;
    final CudaStream ps;
    final CudaStream cs;
    final DeviceBuffer ring;
    final DeviceBuffer local;
    final MappedBuffer results;
    final PatternKernels pw;
    final PatternKernels cw;
    private final int sms;
    private final List<AutoCloseable> owned = new ArrayList<>();

    HandOffRig(Backend backend, int slots, long size) {
        this.slots = slots;
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

    /** Frees {@code r} with the rig. */
    <T extends AutoCloseable> T own(T r) {
        owned.add(r);
        return r;
    }

    /** The fused kernels' grid: a block per 8 KiB, up to eight per multiprocessor. */
    int gridFor(long bytes) {
        return (int) Math.max(1, Math.min(8L * sms, (bytes + 8191) / 8192));
    }

    /** The checksums of the last 1,024 frames ({@link BenchReport#checked} ones) against the pattern. */
    long[] verifyLast(long total, long size) {
        return BenchReport.verifySums(results, total, size);
    }

    /** A timing-free event, destroyed with the rig. */
    CUevent newEvent() {
        d.context().bind();
        CUevent e = new CUevent();
        Cu.check(JCudaDriver.cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate", 0);
        owned.add(() -> JCudaDriver.cuEventDestroy(e));
        return e;
    }

    static void record(CUevent e, CudaStream s) {
        Cu.check(JCudaDriver.cuEventRecord(e, s.handle()), "cuEventRecord", 0);
    }

    static void waitFor(CUevent e, CudaStream s) {
        Cu.check(JCudaDriver.cuStreamWaitEvent(s.handle(), e, 0), "cuStreamWaitEvent", 0);
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
