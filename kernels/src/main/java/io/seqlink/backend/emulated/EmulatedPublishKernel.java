package io.seqlink.backend.emulated;

import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import io.seqlink.layout.SlotHeader;
import java.lang.invoke.VarHandle;

/**
 * The publish step in Java. Each memory effect uses the ordering the CUDA kernel uses at the same
 * place (see {@code seqlink_sync.cuh}): plain stamps, a full fence for {@code fence.sc.sys}, a
 * release add for {@code red.release.sys.add}, release stores for {@code st.release.sys}.
 */
final class EmulatedPublishKernel implements PublishKernel, EmulatedStream.Task {

    private final EmulatedStream stream;
    private final EmulatedDevice device;
    private final EmulatedMemory control;
    private final EmulatedMemory ring;
    private final EmulatedMappedBuffer mirror;
    private final EmulatedMemory[] replicaControls;
    private final EmulatedMemory[] replicaRings;
    private final RingGeometry geometry;
    private final int maxBatch;
    private final EmulatedMemory lengths;

    EmulatedPublishKernel(EmulatedStream stream, PublishBinding b) {
        this.stream = stream;
        this.device = stream.emulatedDevice();
        this.control = device.own(b.control());
        this.ring = device.own(b.ring());
        this.mirror = (EmulatedMappedBuffer) device.own(b.mirror());
        this.geometry = b.geometry();
        this.maxBatch = b.maxBatch();
        this.lengths = b.lengths() == null ? null : device.own(b.lengths());
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
        mirror.setReleaseWord(ControlBlock.WRITER_BUSY, maxBatch);
    }

    @Override
    public void enqueue(int count) {
        if (count < 1 || count > maxBatch) {
            throw new IllegalArgumentException("count must be between 1 and maxBatch " + maxBatch + ", was " + count);
        }
        stream.enqueue(this, null, null, null, count, 0, 0, 0, 0, 0);
    }

    @Override
    public void run(EmulatedStream.Command c) {
        device.beforeLaunch("seqlink_publish");
        int count = (int) c.a;
        device.access(control, "seqlink_publish");
        long first = control.getPlainWord(ControlBlock.PUBLISH_SEQ) + 1; // single writer: our own word
        long last = first + count - 1;
        device.access(ring, "seqlink_publish");
        for (long s = first; s <= last; s++) {
            long offset = geometry.offsetOf(s);
            ring.setPlainWord(offset + SlotHeader.STAMP, s);
            if (lengths != null) { // a plain read of pinned host memory the host wrote before the enqueue
                ring.setPlainWord(offset + SlotHeader.LENGTH, lengths.getPlainWord(offset + SlotHeader.LENGTH));
            }
        }
        // fence.sc.sys + red.release.sys.global.add.u64. In Java the release add alone orders every
        // earlier write of this stream before publish_seq: stream order is a happens-before edge here
        // (one thread runs the stream's work in order, or hands it on through the stream's lock and
        // its volatile head), so the data and the stamps above are covered. A full fence in front of it
        // cost a locked instruction per publish and ordered nothing more.
        control.getAndAddReleaseWord(ControlBlock.PUBLISH_SEQ, count);
        control.setPlainWord(ControlBlock.BATCH_SIZE, count);
        long writerBusy = Sequences.writerBusyAfter(last, maxBatch);
        control.setReleaseWord(ControlBlock.WRITER_BUSY, writerBusy);   // st.release.sys
        VarHandle.storeStoreFence();                                    // later frame writes stay behind it
        for (int i = 0; i < replicaControls.length; i++) {
            push(replicaControls[i], replicaRings[i], first, last, writerBusy);
        }
        mirror.setReleaseWord(ControlBlock.PUBLISH_SEQ, last);          // st.release.sys to host memory
        mirror.setReleaseWord(ControlBlock.WRITER_BUSY, writerBusy);
    }

    /** Copies the frames into a replica ring, then publishes them there with single-writer release stores. */
    private void push(EmulatedMemory replicaControl, EmulatedMemory replicaRing, long first, long last, long writerBusy) {
        device.dma(replicaRing);
        for (long s = first; s <= last; s++) {
            long offset = geometry.offsetOf(s);
            long length = Math.min(ring.getPlainWord(offset + SlotHeader.LENGTH), geometry.slotBytes());
            EmulatedDevice.rawCopy(ring, offset, replicaRing, offset, SlotHeader.BYTES + length);
        }
        device.access(replicaControl, "seqlink_publish");
        VarHandle.fullFence();
        replicaControl.setReleaseWord(ControlBlock.PUBLISH_SEQ, last);
        replicaControl.setPlainWord(ControlBlock.BATCH_SIZE, last - first + 1);
        replicaControl.setReleaseWord(ControlBlock.WRITER_BUSY, writerBusy);
        VarHandle.storeStoreFence();
    }
}
