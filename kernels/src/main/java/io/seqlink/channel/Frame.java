package io.seqlink.channel;

import java.nio.ByteBuffer;

/**
 * One frame as a host listener sees it. A flyweight: valid only during the call it was passed to;
 * copy what you keep. {@link #payload()} is a read-only view of exactly the frame's bytes.
 */
public interface Frame {

    String channel();

    /** The consumer device this delivery is for. */
    int consumerDevice();

    /** The frame's sequence, from 1. */
    long sequence();

    /** Payload length in bytes. */
    int length();

    /** The payload, position 0, limit {@link #length()}; read-only. */
    ByteBuffer payload();

    /** 1 on first delivery, more when a failed delivery is retried. */
    int attempt();

    /**
     * Whether the frame carries a trace context in its header ({@link PublishChannel#context(FrameContext)}). The
     * listener's thread, during the call; one read of the header, no allocation.
     */
    default boolean hasContext() {
        return false;
    }

    /**
     * Copies the frame's trace context into {@code into} and returns {@code true}, or clears {@code into} and returns
     * {@code false} when the frame carries none. The listener's thread, during the call; allocates nothing.
     */
    default boolean context(FrameContext into) {
        into.clear();
        return false;
    }
}
