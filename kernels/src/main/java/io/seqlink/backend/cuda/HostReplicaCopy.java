package io.seqlink.backend.cuda;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import org.jspecify.annotations.Nullable;

/**
 * Pushes a channel's published frames into one replica in host memory with the copy engine, after the publish kernel
 * on the producer's stream: a {@code cuMemcpyAsync} of the batch's slots (their headers as the kernel stamped them),
 * then stream writes of the replica's {@code writer_busy} and {@code publish_seq}. A host reader that acquires the
 * replica's {@code publish_seq} finds every frame up to it: the write is a stream memory operation with its default
 * memory barrier, and stream order runs it after the copy completed. No SM writes host memory, so the publish kernel
 * stays one warp and its system-scope fences order only device memory.
 *
 * <p>Lossless channels only, as every host replica: the producer claims a slot again only after every consumer
 * acknowledged its frame, so the copy never overwrites a slot a host listener still reads. A lapping reader's
 * {@code writer_busy} check also holds: the previous batch's {@code writer_busy} already covers this batch's slots.
 *
 * <p>Not thread-safe: the publish step that owns it calls {@link #enqueue} under its own monitor.
 */
final class HostReplicaCopy {

    private final CudaStream stream;
    private final Memory ring;
    private final Memory replicaControl;
    private final Memory replicaRing;
    private final RingGeometry geometry;
    /** The staging ring whose headers hold each committed frame's length; {@code null}: copy whole slots. */
    private final @Nullable MappedBuffer lengths;
    private final int maxBatch;

    HostReplicaCopy(CudaStream stream, Memory ring, Memory replicaControl, Memory replicaRing, RingGeometry geometry,
            @Nullable MappedBuffer lengths, int maxBatch) {
        this.stream = stream;
        this.ring = ring;
        this.replicaControl = replicaControl;
        this.replicaRing = replicaRing;
        this.geometry = geometry;
        this.lengths = lengths;
        this.maxBatch = maxBatch;
    }

    /** Before the first claim: the replica's {@code writer_busy}, as the init kernel writes the device replicas'. */
    void enqueueInit() {
        stream.writeValue(replicaControl, ControlBlock.WRITER_BUSY, maxBatch);
    }

    /** Enqueues the push of frames {@code first..last}, which the publish kernel enqueued just before stamps. */
    void enqueue(long first, long last) {
        long from = geometry.offsetOf(first);
        long to = geometry.offsetOf(last) + frameBytes(last);
        if (to > from) {
            stream.copy(ring, from, replicaRing, from, to - from);
        } else { // the batch wraps the ring's end
            stream.copy(ring, from, replicaRing, from, geometry.ringBytes() - from);
            stream.copy(ring, 0, replicaRing, 0, to);
        }
        stream.writeValue(replicaControl, ControlBlock.WRITER_BUSY, last + maxBatch);
        stream.writeValue(replicaControl, ControlBlock.PUBLISH_SEQ, last);
    }

    /** The header and payload bytes of frame {@code s}: its committed length when the staging ring holds it. */
    private long frameBytes(long s) {
        if (lengths == null) {
            return SlotHeader.BYTES + geometry.slotBytes();
        }
        long length = lengths.getAcquire(geometry.offsetOf(s) + SlotHeader.LENGTH);
        return SlotHeader.BYTES + Math.max(0, Math.min(length, geometry.slotBytes()));
    }
}
