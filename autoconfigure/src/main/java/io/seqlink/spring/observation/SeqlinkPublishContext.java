package io.seqlink.spring.observation;

import io.micrometer.observation.transport.SenderContext;
import io.seqlink.channel.FrameContext;

/**
 * The context of a {@code seqlink.publish} observation. Its carrier is the {@link FrameContext} the frame is published
 * with: a tracing handler's propagator injects the current span's W3C {@code traceparent} into it (other fields,
 * {@code tracestate} and baggage, do not fit the frame header and are not carried). Made per sampled frame, used by the
 * publishing thread only.
 */
public final class SeqlinkPublishContext extends SenderContext<FrameContext> {

    /** The W3C trace-context field the header carries. */
    public static final String TRACEPARENT = "traceparent";

    private final String channel;

    public SeqlinkPublishContext(String channel, FrameContext carrier) {
        super((c, key, value) -> {
            if (c != null && TRACEPARENT.equals(key)) {
                c.setTraceparent(value);
            }
        });
        this.channel = channel;
        setCarrier(carrier);
        setRemoteServiceName("seqlink");
    }

    /** The channel the frame is published on. */
    public String channel() {
        return channel;
    }
}
