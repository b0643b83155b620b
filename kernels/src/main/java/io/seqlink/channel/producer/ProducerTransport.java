package io.seqlink.channel.producer;

import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.channel.FrameContext;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The producer's memory and device work: the control block and ring on the producer device, the pinned
 * staging ring the host writes frames into, the host mirror of {@code publish_seq}, the producer stream
 * and its bound publish step. A channel whose consumers all read on the host keeps its ring in host memory instead
 * ({@link RingPlace}: pinned memory of its own, or the shared region of a channel shared with other processes): the
 * producer's kernels write each frame once, where the listeners read it, and the publish step pushes nothing.
 *
 * <pre>
 *   producer device                                   host (pinned, mapped)
 *   +-----------------+  +------------------------+   +------------------------+  +-------------+
 *   | control block   |  | ring: slots x stride   |   | staging: slots x stride|  | mirror      |
 *   | (128 B line)    |  | [hdr|payload] ...      |   | (host writes frames)   |  | publish_seq |
 *   +-----------------+  +------------------------+   +------------------------+  +-------------+
 * </pre>
 *
 * <p>Any producing thread calls {@link #copyCommitted} and {@link #setLength} for the frame it holds;
 * {@link #publish} runs under the sequencer's publisher only. Stream order puts every frame's copy
 * before the publish step that covers it: the copy is enqueued before the frame is marked committed.
 */
public final class ProducerTransport {

    private final RingGeometry geometry;
    private final DeviceStream stream;
    private final DeviceBuffer control;
    private final Memory ring;
    final MappedBuffer staging;
    final MappedBuffer mirror;
    /** Where consumers acquire {@code publish_seq} ({@link #publication}). */
    private final Memory publication;
    /** Where the ring and the host mirror are ({@link RingPlace}), decided by the channel as it opens. */
    private final RingPlace place;
    /** Whether the ring is in host memory, written in place through {@link #stagingView}: {@code place.inHost()}. */
    private final boolean hostRing;
    /** The armed rounds' doorbell ring: {@link RingGeometry#doorbellWords()} words; {@code null} when no consumer arms. */
    private final @Nullable MappedBuffer doorbells;
    private final ByteBuffer[] stagingViews;
    /** The headers' trace-context words, where the host writes frames (beside {@link #stagingViews}). */
    private final HeaderContexts contexts;
    /** Bound by {@link #bindPublish}, which the channel calls before it opens. */
    private @Nullable PublishKernel publishKernel;

    /**
     * Allocates everything, adding each resource to {@code resources} as it is made (the caller frees them on failure);
     * {@code place}: where the ring and the host mirror are (allocated here, or given). Called by the channel's opening
     * thread.
     */
    public ProducerTransport(Device producer, String channel, RingGeometry geometry, boolean doorbells, RingPlace place,
            List<AutoCloseable> resources) {
        this.geometry = geometry;
        this.stream = track(resources, producer.newStream(channel + "-producer"));
        this.control = track(resources, producer.allocate(ControlBlock.BYTES));
        this.place = place;
        this.hostRing = place.inHost();
        this.ring = place.ring(producer, geometry, resources);
        this.staging = track(resources, producer.allocateMapped(geometry.ringBytes()));
        this.mirror = place.mirror(producer, resources);
        this.publication = hostRing ? mirror : control;
        this.doorbells = doorbells ? track(resources, producer.allocateMapped(8L * geometry.doorbellWords())) : null;
        this.stagingViews = new ByteBuffer[geometry.slots()];
        // a host ring is written in place: the host's frames need no copy, and a copy engine copying pinned host
        // memory to pinned host memory runs far below the host's own bandwidth (1 MiB: 210 us on the H200)
        MappedBuffer hostWritten = hostRing ? (MappedBuffer) ring : staging; // a host place's ring is host memory
        ByteBuffer all = hostWritten.byteBuffer();
        for (int s = 0; s < geometry.slots(); s++) {
            int offset = Math.toIntExact(s * geometry.stride() + SlotHeader.BYTES);
            stagingViews[s] = all.slice(offset, Math.toIntExact(geometry.slotBytes())).order(ByteOrder.LITTLE_ENDIAN);
        }
        this.contexts = new HeaderContexts(hostWritten, geometry);
    }

    static <T extends AutoCloseable> T track(List<AutoCloseable> resources, T resource) {
        resources.add(resource);
        return resource;
    }

    /** Binds the publish step once the consumers' push targets are known. */
    public void bindPublish(int maxBatch, List<PublishBinding.PushTarget> pushTargets) {
        this.publishKernel = stream.bindPublish(new PublishBinding(control, ring, geometry, mirror, maxBatch, pushTargets, staging,
                doorbells));
        stream.synchronize();
    }

    /**
     * Where the host writes {@code sequence}'s payload: its slot in the staging ring, or in the ring itself when the
     * ring is in host memory. Position 0, limit the slot size, little-endian.
     */
    ByteBuffer stagingView(long sequence) {
        return stagingViews[geometry.slotOf(sequence)];
    }

    /**
     * Ends a frame written through {@link #stagingView}: the length, which the publish step copies into the ring's
     * header, then the copy of the payload to the ring, except for a host ring, whose view is the ring's own slot: its
     * frame is in place, and the host's writes before it enqueues the publish step are visible to that step (CUDA's
     * rule for host writes before a launch), which releases them with the rest (memory-model.md, HR1).
     */
    void copyCommitted(long sequence, int length) {
        contexts.settle(sequence); // the copy below (or the host ring in place) carries the header's context words
        long offset = geometry.offsetOf(sequence);
        staging.setPlain(offset + SlotHeader.LENGTH, length);
        if (!hostRing) {
            stream.copy(staging, offset + SlotHeader.LENGTH, ring, offset + SlotHeader.LENGTH,
                    SlotHeader.BYTES - SlotHeader.LENGTH + length);
        }
    }

    /**
     * Ends a frame a kernel wrote into the ring: only its length, a plain store the publish step copies
     * into the ring's header (no device call per frame; the staging slot is not reused before that publish ran).
     */
    void setLength(long sequence, int length) {
        staging.setPlain(geometry.offsetOf(sequence) + SlotHeader.LENGTH, length);
    }

    /**
     * Writes {@code context} into the header of {@code sequence}, claimed by the calling thread, where the host writes
     * its frame: the commit carries it to the ring ({@link #copyCommitted}, {@link #settleDeviceFrame}).
     */
    void writeContext(long sequence, FrameContext context) {
        contexts.write(sequence, context);
    }

    /**
     * Copies the context words of {@code sequence}'s header, where the host writes frames, into {@code into}; any thread,
     * for a committed frame (see {@link Producer#context}, which checks that the slot still holds it).
     */
    boolean readContext(long sequence, FrameContext into) {
        return contexts.read(sequence, into);
    }

    /**
     * Ends the header of a frame a kernel wrote into the ring, beside {@link #setLength}: when its context words changed
     * for it (written for it, or an earlier frame's cleared), copies them to a ring in device memory on the producer
     * stream; nothing at all for a frame without a context in a slot that held none.
     */
    void settleDeviceFrame(long sequence) {
        if (contexts.settle(sequence) && !hostRing) {
            long offset = geometry.offsetOf(sequence) + SlotHeader.CONTEXT;
            stream.copy(staging, offset, ring, offset, SlotHeader.CONTEXT_BYTES);
        }
    }

    void publish(int count) {
        Objects.requireNonNull(publishKernel, "the channel binds the publish step before it opens").enqueue(count);
    }

    /** {@code publish_seq} as the host mirror shows it; the caller keeps the memory alive. */
    public long publishedOnDevice() {
        return mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
    }

    long devicePointer(long sequence) {
        return ring.address() + geometry.payloadOffsetOf(sequence);
    }

    /** The producer's stream: work enqueued here runs before the next publish. */
    public DeviceStream stream() {
        return stream;
    }

    /** The channel's control block on the producer device. */
    public DeviceBuffer control() {
        return control;
    }

    /**
     * Where consumers acquire {@code publish_seq}: the control block, or, for a ring in host memory, the host mirror,
     * which the publish step stores last (after its fences, so after the frames, their stamps and the add): the
     * frames and the word they are read after are then both in host memory.
     */
    public Memory publication() {
        return publication;
    }

    /** The channel's ring: on the producer device, or in host memory ({@link #place}). Any thread. */
    public Memory ring() {
        return ring;
    }

    /** Where the ring and the host mirror are, as the channel decided when it opened. Any thread. */
    public RingPlace place() {
        return place;
    }

    /** The armed rounds' doorbell ring, or {@code null} when the channel arms no round. */
    public @Nullable MappedBuffer doorbells() {
        return doorbells;
    }
}
