package io.seqlink.backend.cuda;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import io.seqlink.layout.SlotHeader;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The publish step on the producer's stream: the publish kernel ({@code seqlink_publish}), or, for a numbered publish
 * of a few frames without push targets, the same words as one batch of stream writes ({@link StreamWriteBatch}).
 *
 * <p>The kernel's fixed arguments are written once into the binding's parameter block; a launch rewrites only
 * {@code count}, and the kernel reads its own {@code publish_seq} to number the frames. Without push targets it runs
 * as one warp (thread 0 publishes); with push targets a grid copies the frames into every replica and the last block
 * to finish publishes (see the kernel). A user's producer kernel may publish at its own end instead, with
 * {@link #copyHandles these handles}.
 *
 * <p>The batch ({@link #enqueue(long, int)}, when the caller numbers the frames) writes, in order: each frame's stamp
 * and (with a staging ring) its length as the host committed it, {@code publish_seq = last}, {@code writer_busy}, each
 * frame's doorbell, the host mirror's {@code publish_seq}. Why it publishes what the kernel does (memory-model.md,
 * "The publish as one batch of stream writes", SW1 to SW3):
 * <ul>
 *   <li>Every write runs after the producer's earlier work on the stream completed, behind a system-scope memory
 *       barrier: the frames, the stamps and lengths are visible before {@code publish_seq} is (the kernel's first
 *       fence and release add), {@code publish_seq} before {@code writer_busy}, the doorbells and the mirror (its
 *       second fence), and {@code writer_busy} before any later frame write of the stream.</li>
 *   <li>The producer's stream is the only writer of {@code publish_seq} (no push targets: no replica's either) and runs
 *       its publishes in order, so storing the new count is the monotonic value the kernel's add makes; the caller's
 *       numbering is the device's because the channel's sequencer enqueues every publish of the stream.</li>
 *   <li>A length read on the host at the enqueue is the one the kernel would read when it runs: the staging slot is not
 *       reused before the frame is acknowledged, which needs this publish to have run.</li>
 * </ul>
 * A batch carries at most {@link StreamWriteBatch#CAPACITY} writes; a larger publish launches the kernel.
 */
final class CudaPublishKernel implements PublishKernel {

    private final CudaStream stream;
    private final KernelLaunch launch;
    private final int maxBatch;
    private final boolean pushes;
    private final long stride;
    private final int maxBlocks;
    private final RingGeometry geometry;
    private final long ring;
    private final long control;
    private final long mirror;
    /** The staging ring whose lengths the publish copies into the headers; {@code null}: the frames' own. */
    private final @Nullable MappedBuffer lengths;
    /** The doorbell ring's device address, or 0 when no consumer arms. */
    private final long doorbells;
    private final int doorbellCount;
    /** The publish as one batch of stream writes; {@code null}: always the kernel (push targets, or no batch entry point). */
    private final @Nullable StreamWriteBatch writes;
    /** The most frames one batch of {@link #writes} publishes. */
    private final int batchFrames;

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
        this.geometry = g;
        this.control = backend.own(b.control(), "control").at(0, ControlBlock.BYTES, "control");
        this.ring = backend.own(b.ring(), "ring").at(0, g.ringBytes(), "ring");
        this.mirror = backend.own(b.mirror(), "mirror").at(0, ControlBlock.BYTES, "mirror");
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
        this.lengths = b.lengths();
        p.putStructWord(0, KernelArgs.PUBLISH_STAGING,
                lengths == null ? 0 : backend.own(lengths, "lengths").at(0, g.ringBytes(), "lengths"));
        this.doorbells = b.doorbells() == null ? 0
                : backend.own(b.doorbells(), "doorbells").at(0, 8L * b.doorbellCount(), "doorbells");
        this.doorbellCount = b.doorbellCount();
        if (doorbells != 0) {
            p.putStructWord(0, KernelArgs.PUBLISH_DOORBELLS, doorbells);
            p.putStructWord(0, KernelArgs.PUBLISH_DOORBELL_COUNT, doorbellCount);
        }
        for (int i = 0; i < targets.size(); i++) {
            PublishBinding.PushTarget t = targets.get(i);
            p.putStructWord(0, KernelArgs.PUBLISH_PUSH_CONTROL + 8 * i,
                    backend.own(t.control(), "pushTargets[" + i + "].control").at(0, io.seqlink.layout.ControlBlock.BYTES, "replica control"));
            p.putStructWord(0, KernelArgs.PUBLISH_PUSH_RING + 8 * i,
                    backend.own(t.ring(), "pushTargets[" + i + "].ring").at(0, g.ringBytes(), "replica ring"));
        }
        // per frame a stamp, a length from the staging ring and a doorbell; per batch publish_seq, writer_busy, mirror
        int perFrame = 1 + (lengths == null ? 0 : 1) + (doorbells == 0 ? 0 : 1);
        this.writes = pushes || !stream.context().streamMemOps64() ? null : StreamWriteBatch.proven(stream);
        this.batchFrames = writes == null ? 0 : Math.min(maxBatch, (StreamWriteBatch.CAPACITY - 3) / perFrame);
        CudaDeviceBuffer ownedScratch = scratch;
        StreamWriteBatch ownedWrites = writes;
        stream.onClose(() -> {
            launch.release();
            ownedScratch.close();
            if (ownedWrites != null) {
                ownedWrites.release();
            }
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
     * Publishes frames {@code first .. first + count - 1} as one batch of stream writes when they fit one (see the
     * class), with the kernel otherwise. Any thread; publishes are ordered by this step's lock, then the stream.
     */
    @Override
    public synchronized void enqueue(long first, int count) {
        checkCount(count);
        StreamWriteBatch batch = writes;
        if (batch == null || count > batchFrames) {
            launch(count);
            return;
        }
        stream.checkOpen();
        long last = first + count - 1;
        for (long s = first; s <= last; s++) {
            long header = geometry.offsetOf(s);
            batch.add(ring + header + SlotHeader.STAMP, s);
            MappedBuffer staged = lengths;
            if (staged != null) {
                batch.add(ring + header + SlotHeader.LENGTH, staged.getPlain(header + SlotHeader.LENGTH));
            }
        }
        batch.add(control + ControlBlock.PUBLISH_SEQ, last);
        batch.add(control + ControlBlock.WRITER_BUSY, Sequences.writerBusyAfter(last, maxBatch));
        if (doorbells != 0) {
            for (long s = first; s <= last; s++) {
                batch.add(doorbells + (s % doorbellCount) * 8, s);
            }
        }
        batch.add(mirror + ControlBlock.PUBLISH_SEQ, last);
        batch.enqueue(stream.handle(), stream.name());
    }

    /** Launches the publish kernel, which numbers the next {@code count} frames from its own {@code publish_seq}. */
    @Override
    public synchronized void enqueue(int count) {
        checkCount(count);
        launch(count);
    }

    private void checkCount(int count) {
        if (count < 1 || count > maxBatch) {
            throw new IllegalArgumentException("count must be between 1 and maxBatch " + maxBatch + ", was " + count);
        }
    }

    private void launch(int count) {
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
