package io.seqlink.spring.observation;

import io.micrometer.observation.transport.ReceiverContext;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameContext;

/**
 * The context of a {@code seqlink.process} observation: the handling of one frame by one consumer device, which
 * continues the trace context the frame carried in its header (its carrier, which a tracing handler's propagator reads
 * as a W3C {@code traceparent}). Made per observed frame: around a host listener's call, on the listener's thread; or
 * by a device listener's stage from the frame's context ({@link ChannelObservations#startProcess}), from the launch of
 * the frame's work until the stage carried its outcome on, across threads. Its accessors: any thread.
 */
public final class SeqlinkProcessContext extends ReceiverContext<FrameContext> {

    private final String channel;
    private final int consumerDevice;
    private final long sequence;

    /**
     * @param context the frame's trace context; kept as the carrier, so the caller does not change it afterwards
     */
    public SeqlinkProcessContext(String channel, int consumerDevice, long sequence, FrameContext context) {
        super((c, key) -> SeqlinkPublishContext.TRACEPARENT.equals(key) ? c.traceparent() : null);
        this.channel = channel;
        this.consumerDevice = consumerDevice;
        this.sequence = sequence;
        setCarrier(context);
        setRemoteServiceName("seqlink");
    }

    /** The context of {@code frame}'s handling, which carries {@code context} (see the other constructor). */
    public SeqlinkProcessContext(Frame frame, FrameContext context) {
        this(frame.channel(), frame.consumerDevice(), frame.sequence(), context);
    }

    /** The frame's channel. */
    public String channel() {
        return channel;
    }

    /** The consumer device that handles it. */
    public int consumerDevice() {
        return consumerDevice;
    }

    /** The frame's sequence on its channel. */
    public long sequence() {
        return sequence;
    }
}
