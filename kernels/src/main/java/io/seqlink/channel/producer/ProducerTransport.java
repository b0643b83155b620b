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
 * producer's kernels write each frame once, where the listeners read it, the host has no staging ring, the producer
 * device no control block, and the publish is a stream write ({@link HostRingPublish}), not a kernel.
 *
 * <pre>
 *   producer device (a ring in device memory)          host (pinned, mapped)
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
    /** The publish kernel's control block on the producer device; {@code null} for a host ring, which has no publish kernel. */
    private final @Nullable DeviceBuffer control;
    private final Memory ring;
    /** Where the host writes frames and their lengths before a copy to a ring in device memory; {@code null} for a host ring. */
    private final @Nullable MappedBuffer staging;
    /** Where the host writes frames, their lengths and context words: the staging ring, or a host ring itself. */
    private final MappedBuffer hostWritten;
    private final MappedBuffer mirror;
    /** Where consumers acquire {@code publish_seq} ({@link #publication}). */
    private final Memory publication;
    /** Where the ring and the host mirror are ({@link RingPlace}), decided by the channel as it opens. */
    private final RingPlace place;
    /** The armed rounds' doorbell ring: {@link RingGeometry#doorbellWords()} words; {@code null} when no consumer arms (a host ring's never do). */
    private final @Nullable MappedBuffer doorbells;
    private final ByteBuffer[] stagingViews;
    /** The headers' trace-context words, where the host writes frames (beside {@link #stagingViews}). */
    private final HeaderContexts contexts;
    /** Bound by {@link #bindPublish}, which the channel calls before it opens. */
    private @Nullable PublishStep publishStep;

    /**
     * Allocates everything, adding each resource to {@code resources} as it is made (the caller frees them on failure);
     * {@code place}: where the ring and the host mirror are (allocated here, or given). Called by the channel's opening
     * thread.
     */
    public ProducerTransport(Device producer, String channel, RingGeometry geometry, boolean doorbells, RingPlace place,
            List<AutoCloseable> resources) {
        this.geometry = geometry;
        this.stream = track(resources, producer.newStream(channel + "-producer"));
        this.place = place;
        boolean hostRing = place.inHost();
        // a host ring's consumers acquire the host mirror and its publish is a stream write of the mirror: nothing would
        // read or write a control block on the device
        this.control = hostRing ? null : track(resources, producer.allocate(ControlBlock.BYTES));
        this.ring = place.ring(producer, geometry, resources);
        // a host ring is written in place: the host's frames need no copy, and a copy engine copying pinned host
        // memory to pinned host memory runs far below the host's own bandwidth (1 MiB: 210 us on the H200)
        this.staging = hostRing ? null : track(resources, producer.allocateMapped(geometry.ringBytes()));
        this.hostWritten = staging == null ? (MappedBuffer) ring : staging; // a host place's ring is host memory
        this.mirror = place.mirror(producer, resources);
        this.publication = control == null ? mirror : control;
        // a host ring's listeners never arm, and a device listener subscribed on one anyway reads by ordinary rounds:
        // doorbells would cost its publish a stream write per frame (16 KiB pipelined on an H100: 2.06 GB/s with them,
        // 3.11 GB/s without)
        this.doorbells = doorbells && !hostRing ? track(resources, producer.allocateMapped(8L * geometry.doorbellWords())) : null;
        this.stagingViews = new ByteBuffer[geometry.slots()];
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

    /**
     * Binds the publish step once the consumers' push targets are known: {@link HostRingPublish} for a ring in host
     * memory (its consumers read it in place: nothing to push), the backend's publish kernel otherwise.
     */
    public void bindPublish(int maxBatch, List<PublishBinding.PushTarget> pushTargets) {
        MappedBuffer copiedFrom = staging;
        if (copiedFrom == null) {
            if (!pushTargets.isEmpty()) {
                throw new IllegalStateException("a ring in host memory is read in place; it has no replicas to push, was given "
                        + pushTargets.size());
            }
            this.publishStep = new HostRingPublish(stream, (MappedBuffer) ring, mirror, geometry);
            return;
        }
        PublishKernel kernel = stream.bindPublish(new PublishBinding(Objects.requireNonNull(control, "a ring in device memory has "
                + "a control block"), ring, geometry, mirror, maxBatch, pushTargets, copiedFrom, doorbells));
        stream.synchronize();
        this.publishStep = kernel::enqueue; // numbered: the sequencer enqueues every publish of this stream
    }

    /**
     * Where the host writes {@code sequence}'s payload: its slot in the staging ring, or in the ring itself when the
     * ring is in host memory. Position 0, limit the slot size, little-endian.
     */
    ByteBuffer stagingView(long sequence) {
        return stagingViews[geometry.slotOf(sequence)];
    }

    /**
     * Ends a frame written through {@link #stagingView}: the length, then the copy of header and payload from the
     * staging ring to a ring in device memory (the publish step copies the length into the ring's header again). A host
     * ring's view is the ring's own slot: its frame and length are in place, and the host's writes before the publish
     * step is enqueued are visible to it (CUDA's rule for host writes before an enqueue), which releases them with the
     * rest (memory-model.md, HR1).
     */
    void copyCommitted(long sequence, int length) {
        contexts.settle(sequence); // the copy below (or the host ring in place) carries the header's context words
        long offset = geometry.offsetOf(sequence);
        hostWritten.setPlain(offset + SlotHeader.LENGTH, length);
        MappedBuffer copiedFrom = staging;
        if (copiedFrom != null) {
            stream.copy(copiedFrom, offset + SlotHeader.LENGTH, ring, offset + SlotHeader.LENGTH,
                    SlotHeader.BYTES - SlotHeader.LENGTH + length);
        }
    }

    /**
     * Ends a frame a kernel wrote into the ring: only its length, a plain store (no device call per frame) into the
     * staging ring, which the publish kernel copies into the ring's header (the staging slot is not reused before that
     * publish ran), or into a host ring's own header.
     */
    void setLength(long sequence, int length) {
        hostWritten.setPlain(geometry.offsetOf(sequence) + SlotHeader.LENGTH, length);
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
        MappedBuffer copiedFrom = staging;
        if (contexts.settle(sequence) && copiedFrom != null) {
            long offset = geometry.offsetOf(sequence) + SlotHeader.CONTEXT;
            stream.copy(copiedFrom, offset, ring, offset, SlotHeader.CONTEXT_BYTES);
        }
    }

    /** Publishes frames {@code first .. first + count - 1}; the sequencer's publisher only. */
    void publish(long first, int count) {
        Objects.requireNonNull(publishStep, "the channel binds the publish step before it opens").publish(first, count);
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

    /**
     * Where consumers acquire {@code publish_seq}: the control block, or, for a ring in host memory, the host mirror,
     * which {@link HostRingPublish} writes with release ordering after the frames and their stamps: the frames and the
     * word they are read after are then both in host memory, and nothing reads the control block.
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
