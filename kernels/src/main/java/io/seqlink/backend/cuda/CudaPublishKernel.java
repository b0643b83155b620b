package io.seqlink.backend.cuda;

import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.ControlBlock;
import java.util.ArrayList;
import java.util.List;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

/**
 * The publish step on the producer's stream ({@code seqlink_publish}). Its fixed arguments are
 * written once into the binding's parameter block; a publish rewrites only {@code count}. The kernel
 * reads its own {@code publish_seq} to number the frames, so nothing else varies per launch.
 *
 * <p>Without push targets in device memory it runs as one warp (thread 0 publishes). With them a grid
 * copies the frames into every device replica and the last block to finish publishes (see the kernel).
 * Replicas in host memory (a host listener's, a {@code HOST_STAGED} consumer's, a shared channel's) are
 * pushed by the copy engine after the kernel ({@link HostReplicaCopy}): a copy costs what a user's own
 * {@code cudaMemcpyAsync} costs, where SMs writing host memory and fencing those writes at system scope
 * cost more. The push sequence is counted here: with push targets nothing but this step publishes
 * ({@link CudaKernelCall} refuses a user kernel's publish). A user's producer kernel may publish at its
 * own end instead, with {@link #copyHandles these handles}, when there are no push targets.
 */
final class CudaPublishKernel implements PublishKernel {

    private final CudaStream stream;
    private final KernelLaunch launch;
    private final int maxBatch;
    private final boolean pushes;
    private final long stride;
    private final int maxBlocks;
    private final boolean devicePushes;
    /** The copy-engine pushes into host replicas, in the binding's order. */
    private final HostReplicaCopy[] hostCopies;
    /** The last sequence this step published (read once from the control block, then counted). */
    private long published;

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
        List<PublishBinding.PushTarget> deviceTargets = new ArrayList<>();
        List<HostReplicaCopy> copies = new ArrayList<>();
        for (PublishBinding.PushTarget t : targets) {
            if (HostPushMode.COPY_ENGINE.selected() && t.ring() instanceof CudaMappedBuffer
                    && t.control() instanceof CudaMappedBuffer) {
                copies.add(new HostReplicaCopy(stream, b.ring(), t.control(), t.ring(), g, b.lengths(), maxBatch));
            } else {
                deviceTargets.add(t);
            }
        }
        this.devicePushes = !deviceTargets.isEmpty();
        this.hostCopies = copies.toArray(new HostReplicaCopy[0]);
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
        p.putStructWord(0, KernelArgs.PUBLISH_PUSH_COUNT, deviceTargets.size());
        p.putStructWord(0, KernelArgs.PUBLISH_STAGING,
                b.lengths() == null ? 0 : backend.own(b.lengths(), "lengths").at(0, g.ringBytes(), "lengths"));
        if (b.doorbells() != null) {
            p.putStructWord(0, KernelArgs.PUBLISH_DOORBELLS,
                    backend.own(b.doorbells(), "doorbells").at(0, 8L * b.doorbellCount(), "doorbells"));
            p.putStructWord(0, KernelArgs.PUBLISH_DOORBELL_COUNT, b.doorbellCount());
        }
        for (int i = 0; i < deviceTargets.size(); i++) {
            PublishBinding.PushTarget t = deviceTargets.get(i);
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
                for (HostReplicaCopy c : hostCopies) {
                    c.enqueueInit();
                }
                stream.synchronize(); // the init's parameter block goes back to the arena only once it ran
            } finally {
                init.release();
            }
            this.published = hostCopies.length == 0 ? 0 : publishedWord(control);
        }
    }

    /** The control block's {@code publish_seq}, read once at bind (the stream ran everything before). */
    private long publishedWord(long control) {
        long[] word = new long[1];
        stream.context().bind();
        Cu.check(JCudaDriver.cuMemcpyDtoH(Pointer.to(word), NativePointers.devicePointer(control + ControlBlock.PUBLISH_SEQ), 8),
                "cuMemcpyDtoH", stream.context().ordinal(), "publish_seq");
        return word[0];
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

    @Override
    public synchronized void enqueue(int count) {
        if (count < 1 || count > maxBatch) {
            throw new IllegalArgumentException("count must be between 1 and maxBatch " + maxBatch + ", was " + count);
        }
        stream.checkOpen();
        launch.params.putLong(1, count);
        if (!devicePushes) {
            launch.launch(stream.handle(), 1, 32);
        } else {
            long blocks = (count * stride + KernelArgs.BYTES_PER_BLOCK - 1) / KernelArgs.BYTES_PER_BLOCK;
            launch.launch(stream.handle(), (int) Math.max(1, Math.min(maxBlocks, blocks)), KernelArgs.BLOCK_THREADS);
        }
        if (hostCopies.length != 0) {
            long first = published + 1;
            published += count;
            for (HostReplicaCopy c : hostCopies) {
                c.enqueue(first, published);
            }
        }
    }
}
