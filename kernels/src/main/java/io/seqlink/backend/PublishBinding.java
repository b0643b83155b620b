package io.seqlink.backend;

import io.seqlink.layout.RingGeometry;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a publish step works on.
 *
 * @param control     the channel's control block (producer device)
 * @param ring        the channel's ring (producer device)
 * @param geometry    the ring's shape
 * @param mirror      the producer's host mirror (layout of the control block)
 * @param maxBatch    the most frames claimed between two publishes; {@code writer_busy} runs this far ahead
 * @param pushTargets replicas the publish step pushes frames and sequences into (may be empty)
 * @param lengths     pinned host memory of the ring's geometry whose slot headers hold each committed
 *                    frame's length (the producer's staging ring): the publish step writes those lengths
 *                    into the ring's headers, so committing a frame a kernel wrote costs no device call;
 *                    {@code null} when the ring's headers already hold them
 * @param doorbells   pinned host memory of {@code n} 64-bit words (the armed rounds' doorbell ring): every
 *                    publish of frame {@code s} also stores {@code s} into word {@code s % n}, before the
 *                    host mirror; an extra signal for consumers waiting on it, never the publication itself;
 *                    {@code null}: no armed consumers
 */
public record PublishBinding(Memory control, Memory ring, RingGeometry geometry, MappedBuffer mirror, int maxBatch,
        List<PushTarget> pushTargets, @Nullable MappedBuffer lengths, @Nullable MappedBuffer doorbells) {

    /** A binding whose ring headers already hold the frames' lengths. */
    public PublishBinding(Memory control, Memory ring, RingGeometry geometry, MappedBuffer mirror, int maxBatch,
            List<PushTarget> pushTargets) {
        this(control, ring, geometry, mirror, maxBatch, pushTargets, null, null);
    }

    /** A binding without doorbells. */
    public PublishBinding(Memory control, Memory ring, RingGeometry geometry, MappedBuffer mirror, int maxBatch,
            List<PushTarget> pushTargets, @Nullable MappedBuffer lengths) {
        this(control, ring, geometry, mirror, maxBatch, pushTargets, lengths, null);
    }

    /** The doorbell ring's length in words (0 without doorbells). */
    public int doorbellCount() {
        return doorbells == null ? 0 : (int) (doorbells.bytes() >>> 3);
    }

    public PublishBinding {
        Objects.requireNonNull(control, "control");
        Objects.requireNonNull(ring, "ring");
        Objects.requireNonNull(geometry, "geometry");
        Objects.requireNonNull(mirror, "mirror");
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
        }
        pushTargets = List.copyOf(pushTargets);
        if (lengths != null && lengths.bytes() < geometry.ringBytes()) {
            throw new IllegalArgumentException("lengths must span the ring (" + geometry.ringBytes() + " bytes), has "
                    + lengths.bytes());
        }
        if (doorbells != null && doorbells.bytes() < 8) {
            throw new IllegalArgumentException("doorbells must hold at least one 64-bit word, has " + doorbells.bytes() + " bytes");
        }
    }

    /**
     * A replica of the control block and of the ring that the producer writes for a consumer without
     * a usable pull path: on the consumer's device ({@code PEER_COPY}) or in pinned host memory
     * ({@code HOST_STAGED}).
     */
    public record PushTarget(Memory control, Memory ring) {
        public PushTarget {
            Objects.requireNonNull(control, "control");
            Objects.requireNonNull(ring, "ring");
        }
    }
}
