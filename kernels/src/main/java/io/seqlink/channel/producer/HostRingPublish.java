package io.seqlink.channel.producer;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;

/**
 * The publish of a channel whose ring is in host memory ({@link RingPlace#inHost()}): no kernel. The host stamps each
 * frame's slot header, and one stream write of the host mirror's {@code publish_seq} follows the producer's kernels on
 * its stream. Such a channel has no doorbells: its host listeners never arm, and a device listener subscribed on it
 * anyway takes its frames by ordinary rounds.
 *
 * <p>Why it is correct (memory-model.md, HR1 to HR3):
 * <ul>
 *   <li>A frame's payload is written by the producer's kernels earlier on the stream, or by the host in place before
 *       the commit; its length and context words by the host at the commit; its stamp by the host here. All host
 *       writes precede the enqueue of the stream write, and host writes before an enqueue are visible to the work it
 *       enqueues (CUDA's rule, as for a launch); the stream write runs after every kernel before it completed.</li>
 *   <li>The stream write has release ordering ({@link DeviceStream#writeValue}: {@code cuStreamWriteValue64} without
 *       {@code NO_MEMORY_BARRIER}, a system-scope fence before the word): a reader that acquires the mirror at
 *       {@code s} finds frame {@code s}'s payload, length, context and stamp.</li>
 *   <li>The mirror is the publication of a host ring: its consumers acquire it, and nothing reads the control block on
 *       the device ({@link ProducerTransport#publication()}). The producer is the mirror's only writer and its stream
 *       runs the writes in order, so a store of the new count is the monotonic publish the protocol's add makes.</li>
 *   <li>Stamping a slot before its frame has landed is safe: its frame is read only after the mirror passed it, and the
 *       slot's previous frame is no longer read (a host ring belongs to a lossless channel: the producer claims a slot
 *       again only after every consumer acknowledged its last frame).</li>
 * </ul>
 * A stream write costs the device's front end a fence and one posted write, where the publish kernel cost a launch
 * after the producer's kernel, two system-scope fences in a warp and the host's launch call. Called under the
 * sequencer's publisher only, like every publish step; allocates nothing.
 */
final class HostRingPublish implements PublishStep {

    private final DeviceStream stream;
    private final MappedBuffer ring;
    private final MappedBuffer mirror;
    private final RingGeometry geometry;

    HostRingPublish(DeviceStream stream, MappedBuffer ring, MappedBuffer mirror, RingGeometry geometry) {
        this.stream = stream;
        this.ring = ring;
        this.mirror = mirror;
        this.geometry = geometry;
    }

    @Override
    public void publish(long first, int count) {
        long last = first + count - 1;
        for (long s = first; s <= last; s++) {
            ring.setRelease(geometry.offsetOf(s) + SlotHeader.STAMP, s);
        }
        stream.writeValue(mirror, ControlBlock.PUBLISH_SEQ, last);
    }
}
