package io.seqlink.spring.observation;

import io.micrometer.observation.ObservationRegistry;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameContext;
import io.seqlink.channel.FrameHandler;
import org.jspecify.annotations.Nullable;

/**
 * A listener whose calls for frames carrying a trace context run inside a {@code seqlink.process} observation that
 * continues that context; a frame without one is handed on as it is (one read of its header). Called on the port's
 * listener thread, one frame at a time, as the listener it wraps.
 */
final class ObservedFrameHandler implements FrameHandler {

    private final FrameHandler delegate;
    private final ObservationRegistry registry;
    private final @Nullable SeqlinkProcessObservationConvention convention;

    ObservedFrameHandler(FrameHandler delegate, ObservationRegistry registry,
            @Nullable SeqlinkProcessObservationConvention convention) {
        this.delegate = delegate;
        this.registry = registry;
        this.convention = convention;
    }

    @Override
    public void onFrame(Frame frame) throws Exception {
        if (!frame.hasContext()) {
            delegate.onFrame(frame);
            return;
        }
        FrameContext context = new FrameContext();
        frame.context(context);
        SeqlinkProcessContext observed = new SeqlinkProcessContext(frame, context);
        SeqlinkObservation.PROCESS.observation(convention, DefaultSeqlinkProcessObservationConvention.INSTANCE,
                () -> observed, registry).observeChecked(() -> delegate.onFrame(frame));
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
