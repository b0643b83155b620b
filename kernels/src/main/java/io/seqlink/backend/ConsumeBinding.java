package io.seqlink.backend;

import io.seqlink.layout.RingGeometry;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a consume step works on.
 *
 * @param control   the control block it acquires {@code publish_seq} from: the producer's (pull) or a replica (push)
 * @param ring      the ring that holds the frames: the producer's or a replica
 * @param geometry  the ring's shape
 * @param maxBatch  the producer's {@code max_batch}, to interpret {@code writer_busy}
 * @param localRing the consumer's local ring to copy into, or {@code null} in direct mode
 * @param block     the consumer's device block ({@link io.seqlink.layout.ConsumerBlock})
 * @param mirror    the consumer's host mirror (same layout)
 * @param lapping   whether the producer may overwrite frames this consumer has not acknowledged
 *                  ({@code latest} delivery): only then does the step check {@code writer_busy}
 */
public record ConsumeBinding(Memory control, Memory ring, RingGeometry geometry, int maxBatch, @Nullable Memory localRing,
        DeviceBuffer block, MappedBuffer mirror, boolean lapping) {

    public ConsumeBinding {
        Objects.requireNonNull(control, "control");
        Objects.requireNonNull(ring, "ring");
        Objects.requireNonNull(geometry, "geometry");
        Objects.requireNonNull(block, "block");
        Objects.requireNonNull(mirror, "mirror");
    }

    public boolean copyMode() {
        return localRing != null;
    }
}
