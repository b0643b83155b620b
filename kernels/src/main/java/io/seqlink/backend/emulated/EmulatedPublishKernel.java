package io.seqlink.backend.emulated;

import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import io.seqlink.layout.SlotHeader;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * The publish step in Java. Each memory effect uses the ordering the CUDA kernel gives it at the same
 * place (the publish tail of {@code seqlink_device.cuh}): plain stamps and copies, a release add for
 * the fence plus {@code red.relaxed.sys.add}, release stores for the replica words the same fence
 * releases, a store-store fence for the second fence, then the host mirror.
 */
final class EmulatedPublishKernel implements EmulatedSteps, PublishKernel, EmulatedStream.Task {

    /** A publish the device numbers ({@link #enqueue(int)}); sequences start at 1. */
    private static final long UNNUMBERED = 0;

    private final EmulatedStream stream;
    private final EmulatedDevice device;
    private final EmulatedMemory control;
    private final EmulatedMemory ring;
    private final EmulatedMappedBuffer mirror;
    private final EmulatedMemory[] replicaControls;
    private final EmulatedMemory[] replicaRings;
    private final RingGeometry geometry;
    private final int maxBatch;
    private final @Nullable EmulatedMemory lengths;
    private final @Nullable EmulatedMemory doorbells;
    private final int doorbellCount;

    EmulatedPublishKernel(EmulatedStream stream, PublishBinding b) {
        this.stream = stream;
        this.device = stream.emulatedDevice();
        this.control = device.own(b.control());
        this.ring = device.own(b.ring());
        this.mirror = (EmulatedMappedBuffer) device.own(b.mirror());
        this.geometry = b.geometry();
        this.maxBatch = b.maxBatch();
        this.lengths = b.lengths() == null ? null : device.own(b.lengths());
        this.doorbells = b.doorbells() == null ? null : device.own(b.doorbells());
        this.doorbellCount = b.doorbellCount();
        this.replicaControls = new EmulatedMemory[b.pushTargets().size()];
        this.replicaRings = new EmulatedMemory[b.pushTargets().size()];
        for (int i = 0; i < replicaControls.length; i++) {
            replicaControls[i] = device.own(b.pushTargets().get(i).control());
            replicaRings[i] = device.own(b.pushTargets().get(i).ring());
        }
        // The replicas' writer_busy must cover the first batch before anything is pushed.
        for (EmulatedMemory rc : replicaControls) {
            rc.setReleaseWord(ControlBlock.WRITER_BUSY, maxBatch);
        }
        control.setReleaseWord(ControlBlock.WRITER_BUSY, maxBatch);
    }

    EmulatedStream stream() {
        return stream;
    }

    @Override
    public EmulatedMemory ring() {
        return ring;
    }

    @Override
    public RingGeometry geometry() {
        return geometry;
    }

    /** {@code seqlink::device::first_unpublished}: the producer's own word, plus one. */
    long firstUnpublished() {
        return control.getPlainWord(ControlBlock.PUBLISH_SEQ) + 1;
    }

    /** Whether the channel has push consumers (a user kernel then cannot publish at its end). */
    boolean pushes() {
        return replicaControls.length > 0;
    }

    @Override
    public void enqueue(int count) {
        enqueuePublish(UNNUMBERED, count);
    }

    /** The numbered publish, checked as it runs: the stream fails when {@code first} is not the device's next. */
    @Override
    public void enqueue(long first, int count) {
        if (first < 1) {
            throw new IllegalArgumentException("first must be a sequence (1 or more), was " + first);
        }
        enqueuePublish(first, count);
    }

    /** {@code first}: the caller's number of the batch's first frame, or {@link #UNNUMBERED}. */
    private void enqueuePublish(long first, int count) {
        if (count < 1 || count > maxBatch) {
            throw new IllegalArgumentException("count must be between 1 and maxBatch " + maxBatch + ", was " + count);
        }
        stream.enqueue(this, null, null, null, count, first, 0, 0, 0, 0);
    }

    @Override
    public void run(EmulatedStream.Command c) {
        device.beforeLaunch("seqlink_publish");
        if (c.b != UNNUMBERED && c.b != firstUnpublished()) {
            throw new IllegalStateException("seqlink_publish: the caller numbered this publish from " + c.b + ", but the "
                    + "first unpublished sequence is " + firstUnpublished() + " (PublishKernel.enqueue(first, count): "
                    + "first must count every publish enqueued earlier on the stream, users' kernels' included)");
        }
        publish((int) c.a, "seqlink_publish", lengths);
    }

    /**
     * {@code seqlink::device::publish_at_end} inside a user kernel's twin: the publish of the next
     * {@code count} frames, whose lengths the kernel wrote itself (the handles a user kernel gets name no
     * staging ring, as on the CUDA backend).
     */
    void publishAtEnd(int count, String kernel) {
        publish(count, kernel, null);
    }

    /**
     * The publish of the next {@code count} frames, in the running step's place in stream order, with
     * their lengths copied from {@code staging} when it is not null (the publish step's staging ring).
     */
    private void publish(int count, String kernel, @Nullable EmulatedMemory staging) {
        if (count < 1 || count > maxBatch) {
            throw new IllegalArgumentException("count must be between 1 and maxBatch " + maxBatch + ", was " + count
                    + " (" + kernel + ")");
        }
        device.access(control, kernel);
        long first = control.getPlainWord(ControlBlock.PUBLISH_SEQ) + 1; // single writer: our own word
        long last = first + count - 1;
        device.access(ring, kernel);
        for (long s = first; s <= last; s++) {
            long offset = geometry.offsetOf(s);
            ring.setPlainWord(offset + SlotHeader.STAMP, s);
            if (staging != null) { // a plain read of pinned host memory the host wrote before the enqueue
                ring.setPlainWord(offset + SlotHeader.LENGTH, staging.getPlainWord(offset + SlotHeader.LENGTH));
            }
        }
        for (int i = 0; i < replicaControls.length; i++) {
            copyToReplica(replicaRings[i], first, last);
        }
        // fence.acq_rel.sys + red.relaxed.sys.add (a release add). In Java the release add alone orders
        // every earlier write of this stream before publish_seq: stream order is a happens-before edge
        // here (one thread runs the stream's work in order, or hands it on through the stream's lock and
        // its volatile head), so the data, the stamps and the replica copies above are covered.
        control.getAndAddReleaseWord(ControlBlock.PUBLISH_SEQ, count);
        long writerBusy = Sequences.writerBusyAfter(last, maxBatch);
        control.setReleaseWord(ControlBlock.WRITER_BUSY, writerBusy);
        for (EmulatedMemory rc : replicaControls) {
            // single-writer stores into the consumer's replica, released like the add
            device.access(rc, kernel);
            rc.setReleaseWord(ControlBlock.PUBLISH_SEQ, last);
            rc.setReleaseWord(ControlBlock.WRITER_BUSY, writerBusy);
        }
        VarHandle.storeStoreFence();                                    // fence.acq_rel.sys: later frame writes stay behind writer_busy
        if (doorbells != null) {
            // st.relaxed.sys after the second fence, which orders the add before them: a consumer stream
            // whose wait passes on doorbell s finds publish_seq >= s (here the release add already does it)
            for (long s = first; s <= last; s++) {
                doorbells.setReleaseWord((s % doorbellCount) * 8, s);
            }
        }
        mirror.setReleaseWord(ControlBlock.PUBLISH_SEQ, last + device.mirrorLead()); // the host mirror, last (lead: a fault)
    }

    /**
     * Copies the frames' slots into a replica ring (the publish step's grid does it with 16-byte stores): the
     * header as it is, padding's negative length word included, and the payload of the clamped length.
     */
    private void copyToReplica(EmulatedMemory replicaRing, long first, long last) {
        device.dma(replicaRing);
        for (long s = first; s <= last; s++) {
            long offset = geometry.offsetOf(s);
            long length = Math.min(Math.max(ring.getPlainWord(offset + SlotHeader.LENGTH), 0), geometry.slotBytes());
            EmulatedDevice.rawCopy(ring, offset, replicaRing, offset, SlotHeader.BYTES + length);
        }
    }
}
