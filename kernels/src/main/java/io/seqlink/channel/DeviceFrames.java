package io.seqlink.channel;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;

/**
 * The frames of one consume round as a device listener sees them: where they are on (or reachable
 * from) the consumer's device, and the stream to enqueue work on. Work enqueued on {@link #stream()}
 * runs after the consume step and before the ack, so it may read the frames; the ack follows it.
 * Valid only during the call.
 */
public interface DeviceFrames {

    String channel();

    int consumerDevice();

    /** First sequence of the round. */
    long first();

    /** Last sequence of the round ({@code first() - 1} when empty). */
    long last();

    /** The memory that holds the frames: the consumer's local ring (copy mode) or the source ring (direct mode). */
    Memory memory();

    /** Offset of the payload of {@code sequence} in {@link #memory()}. */
    long payloadOffset(long sequence);

    /** Offset of the header ({@link io.seqlink.layout.SlotHeader}) of {@code sequence} in {@link #memory()}. */
    long headerOffset(long sequence);

    /**
     * The consumer's device block ({@link io.seqlink.layout.ConsumerBlock}); under latest delivery a
     * device listener skips frames below the word at {@code VALID_FROM}.
     */
    Memory descriptor();

    /** The consumer's stream. */
    DeviceStream stream();
}
