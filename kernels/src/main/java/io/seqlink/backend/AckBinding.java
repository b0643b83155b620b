package io.seqlink.backend;

import java.util.Objects;

/**
 * What an ack step works on.
 *
 * @param block  the consumer's device block
 * @param mirror the consumer's host mirror
 */
public record AckBinding(DeviceBuffer block, MappedBuffer mirror) {
    public AckBinding {
        Objects.requireNonNull(block, "block");
        Objects.requireNonNull(mirror, "mirror");
    }
}
