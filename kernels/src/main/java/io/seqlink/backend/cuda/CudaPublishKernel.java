package io.seqlink.backend.cuda;

import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.layout.RingGeometry;
import java.util.List;

/**
 * The publish step on the producer's stream ({@code seqlink_publish}). Its fixed arguments are
 * written once into the binding's parameter block; a publish rewrites only {@code count}. The kernel
 * reads its own {@code publish_seq} to number the frames, so nothing else varies per launch.
 *
 * <p>Without push targets it runs as one warp (thread 0 publishes). With push targets a grid copies
 * the frames into every replica and the last block to finish publishes (see the kernel). A user's
 * producer kernel may publish at its own end instead, with {@link #copyHandles these handles}.
 */
final class CudaPublishKernel implements PublishKernel {

    private final CudaStream stream;
    private final KernelLaunch launch;
    private final int maxBatch;
    private final boolean pushes;
    private final long stride;
    private final int maxBlocks;

    CudaPublishKernel(CudaStream stream, PublishBinding b) {
        this.stream = stream;
        CudaBackend backend = stream.backend();
        List<PublishBinding.PushTarget> targets = b.pushTargets();
        if (targets.size() > KernelArgs.MAX_PUSH_TARGETS) {
            throw new IllegalArgumentException("pushTargets: " + targets.size() + " replicas, more than the "
                    + KernelArgs.MAX_PUSH_TARGETS + " one publish step writes; give the channel fewer push "
                    + "(peer-copy / host-staged) consumers or split it into several channels");
        }
        RingGeometry g = b.geometry();
        this.maxBatch = b.maxBatch();
        this.pushes = !targets.isEmpty();
        this.stride = g.stride();
        this.maxBlocks = 2 * stream.context().multiprocessors();
        long control = backend.own(b.control(), "control").at(0, io.seqlink.layout.ControlBlock.BYTES, "control");
        long ring = backend.own(b.ring(), "ring").at(0, g.ringBytes(), "ring");
        long mirror = backend.own(b.mirror(), "mirror").at(0, io.seqlink.layout.ControlBlock.BYTES, "mirror");
        // the grid's arrival counter: multi-block publishes (pushes) and users' kernels publishing at their end
        CudaDeviceBuffer scratch = (CudaDeviceBuffer) stream.cudaDevice().allocate(KernelArgs.SCRATCH_BYTES);
        this.launch = new KernelLaunch(stream.context(), "seqlink_publish", KernelArgs.PUBLISH_BYTES, 8);
        ParamBlock p = launch.params;
        p.putStructWord(0, KernelArgs.PUBLISH_CONTROL, control);
        p.putStructWord(0, KernelArgs.PUBLISH_RING, ring);
        p.putStructWord(0, KernelArgs.PUBLISH_MIRROR, mirror);
        p.putStructWord(0, KernelArgs.PUBLISH_SCRATCH, scratch.address());
        p.putStructWord(0, KernelArgs.PUBLISH_SLOTS, g.slots());
        p.putStructWord(0, KernelArgs.PUBLISH_STRIDE, g.stride());
        p.putStructWord(0, KernelArgs.PUBLISH_SLOT_BYTES, g.slotBytes());
        p.putStructWord(0, KernelArgs.PUBLISH_MAX_BATCH, maxBatch);
        p.putStructWord(0, KernelArgs.PUBLISH_PUSH_COUNT, targets.size());
        p.putStructWord(0, KernelArgs.PUBLISH_STAGING,
                b.lengths() == null ? 0 : backend.own(b.lengths(), "lengths").at(0, g.ringBytes(), "lengths"));
        if (b.doorbells() != null) {
            p.putStructWord(0, KernelArgs.PUBLISH_DOORBELLS,
                    backend.own(b.doorbells(), "doorbells").at(0, 8L * b.doorbellCount(), "doorbells"));
            p.putStructWord(0, KernelArgs.PUBLISH_DOORBELL_COUNT, b.doorbellCount());
        }
        for (int i = 0; i < targets.size(); i++) {
            PublishBinding.PushTarget t = targets.get(i);
            p.putStructWord(0, KernelArgs.PUBLISH_PUSH_CONTROL + 8 * i,
                    backend.own(t.control(), "pushTargets[" + i + "].control").at(0, io.seqlink.layout.ControlBlock.BYTES, "replica control"));
            p.putStructWord(0, KernelArgs.PUBLISH_PUSH_RING + 8 * i,
                    backend.own(t.ring(), "pushTargets[" + i + "].ring").at(0, g.ringBytes(), "replica ring"));
        }
        CudaDeviceBuffer ownedScratch = scratch;
        stream.onClose(() -> {
            launch.release();
            ownedScratch.close();
        });
        // writer_busy = max_batch everywhere before the first claim (same parameter block: the init
        // kernel takes only the struct, so the driver reads only the first pointer).
        synchronized (this) {
            KernelLaunch init = new KernelLaunch(stream.context(), "seqlink_publish_init", KernelArgs.PUBLISH_BYTES);
            init.params.view().put(init.params.valueOffset(0), p.view(), p.valueOffset(0), KernelArgs.PUBLISH_BYTES);
            try {
                init.launch(stream.handle(), 1, 1);
                stream.synchronize(); // the init's parameter block goes back to the arena only once it ran
            } finally {
                init.release();
            }
        }
    }

    CudaStream stream() {
        return stream;
    }

    /** Whether the channel has push consumers (whose replicas only the publish step's grid writes). */
    boolean pushes() {
        return pushes;
    }

    /**
     * Copies this channel's publish handles ({@code PublishArgs}) into parameter {@code index} of a user
     * kernel's block, for {@code seqlink::device::publish_at_end}, without the staging ring: a kernel that
     * publishes wrote its frames' lengths itself ({@code set_length}), and a length copied from the
     * staging ring (what the host committed last into that slot) would overwrite them.
     */
    synchronized void copyHandles(ParamBlock dst, int index) {
        dst.view().put(dst.valueOffset(index), launch.params.view(), launch.params.valueOffset(0), KernelArgs.PUBLISH_BYTES);
        dst.putStructWord(index, KernelArgs.PUBLISH_STAGING, 0);
    }

    /**
     * The kernel numbers the frames from its own word, which the caller's numbering equals ({@code first} is for backends
     * that write the publish from the host's side). Any thread; publishes are ordered by this step's lock, then the stream.
     */
    @Override
    public void enqueue(long first, int count) {
        enqueue(count);
    }

    @Override
    public synchronized void enqueue(int count) {
        if (count < 1 || count > maxBatch) {
            throw new IllegalArgumentException("count must be between 1 and maxBatch " + maxBatch + ", was " + count);
        }
        stream.checkOpen();
        launch.params.putLong(1, count);
        if (!pushes) {
            launch.launch(stream.handle(), 1, 32);
        } else {
            long blocks = (count * stride + KernelArgs.BYTES_PER_BLOCK - 1) / KernelArgs.BYTES_PER_BLOCK;
            launch.launch(stream.handle(), (int) Math.max(1, Math.min(maxBlocks, blocks)), KernelArgs.BLOCK_THREADS);
        }
    }
}
