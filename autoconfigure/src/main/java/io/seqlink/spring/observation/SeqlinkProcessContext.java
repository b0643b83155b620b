package io.seqlink.spring.observation;

import io.micrometer.observation.transport.ReceiverContext;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameContext;

/**
 * The context of a {@code seqlink.process} observation: the frame a listener is called with, whose header's trace
 * context a tracing handler's propagator extracts (as a W3C {@code traceparent}). Made per observed frame, on the
 * listener's thread; valid during the listener's call, like the frame.
 */
public final class SeqlinkProcessContext extends ReceiverContext<Frame> {

    private final String channel;
    private final int consumerDevice;

    public SeqlinkProcessContext(Frame frame, FrameContext context) {
        super((f, key) -> SeqlinkPublishContext.TRACEPARENT.equals(key) ? context.traceparent() : null);
        this.channel = frame.channel();
        this.consumerDevice = frame.consumerDevice();
        setCarrier(frame);
        setRemoteServiceName("seqlink");
    }

    /** The frame's channel. */
    public String channel() {
        return channel;
    }

    /** The consumer device whose listener runs. */
    public int consumerDevice() {
        return consumerDevice;
    }
}
