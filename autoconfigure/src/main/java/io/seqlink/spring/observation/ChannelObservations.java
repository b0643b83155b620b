package io.seqlink.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.FrameContext;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which channels are observed, and how: wraps an observed channel's {@link PublishChannel} (publish side) and a
 * {@code @ChannelListener}'s frame handler on an observed channel (listener side), and starts the observation of a
 * device listener's frame for the stage that carries it on; leaves everything else as it is, so a channel that is not
 * observed costs nothing. A bean of the starter (when Micrometer's Observation API is on the class path). Immutable;
 * any thread.
 *
 * <h2>Device listeners</h2>
 * A device listener ({@link DeviceFrameHandler}) is not wrapped: its call enqueues kernels for a round of frames and
 * returns, so an observation around it would time the enqueueing, not the work, and a round mixes frames of many
 * traces, or of none. spring-kafka and Spring AMQP observe record listeners and leave a batch listener's items to the
 * handler (Spring AMQP creates no observation for batch listeners; spring-kafka's per-record option makes
 * short-lived observations that the listener does not see, and its batch observation takes the first record's trace
 * for the whole batch). seqlink leaves it to the stage too, with the means to do it per frame: {@link #startProcess}
 * starts a frame's {@code seqlink.process} observation as the listener enqueues that frame's work, the stage stops it
 * when it sees the work done (on whatever thread), and what it publishes inside its scope continues the trace.
 */
public final class ChannelObservations {

    /** One channel's settings: {@code probability} of a published frame being observed, 0 to 1. */
    public record Settings(boolean enabled, double probability) {
    }

    private final ObservationRegistry registry;
    private final Map<String, Settings> channels;
    private final @Nullable SeqlinkPublishObservationConvention publishConvention;
    private final @Nullable SeqlinkProcessObservationConvention processConvention;

    public ChannelObservations(ObservationRegistry registry, Map<String, Settings> channels,
            @Nullable SeqlinkPublishObservationConvention publishConvention,
            @Nullable SeqlinkProcessObservationConvention processConvention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.channels = Map.copyOf(channels);
        this.publishConvention = publishConvention;
        this.processConvention = processConvention;
    }

    /** Whether channel {@code name} is observed: enabled, and an observation registry that records something. */
    public boolean observes(String name) {
        Settings s = channels.get(name);
        return s != null && s.enabled() && !registry.isNoop();
    }

    /** {@code channel} with its publishes observed when it {@link #observes} it, else {@code channel} itself. */
    public PublishChannel observe(PublishChannel channel) {
        if (!observes(channel.name()) || channel instanceof ObservedPublishChannel) {
            return channel;
        }
        Settings s = channels.get(channel.name());
        return new ObservedPublishChannel(channel, registry, Sampler.of(Objects.requireNonNull(s).probability()),
                publishConvention);
    }

    /** {@code handler} with its calls observed when the port's channel is observed, else {@code handler} itself. */
    public FrameHandler observe(ConsumerPort port, FrameHandler handler) {
        return observes(port.channel()) ? new ObservedFrameHandler(handler, registry, processConvention) : handler;
    }

    /**
     * Starts the {@code seqlink.process} observation of frame {@code sequence} of a device listener's round, which
     * continues the trace context the frame carries ({@link DeviceFrames#context(long, FrameContext)}); {@code null}
     * when the round's channel is not observed (nothing is read) or the frame carries no context (one header word is
     * read). The listener's thread, during its call; allocates only for a frame with a context.
     *
     * <p>The caller owns the observation: it stops it, from any thread, once the work it enqueued for the frame is
     * known done (so the span covers the frame's processing on the device, not the enqueueing), after opening its scope
     * around publishing the frame's outcome: a frame published there on an observed channel is observed whatever that
     * channel's sampler says, its span a child of this one, so the trace goes on through the next channel.
     *
     * @throws IllegalArgumentException when {@code sequence} is not a frame of the round
     */
    public @Nullable Observation startProcess(DeviceFrames frames, long sequence) {
        if (!observes(frames.channel()) || !frames.hasContext(sequence)) {
            return null;
        }
        FrameContext context = new FrameContext();
        if (!frames.context(sequence, context)) {
            return null;
        }
        SeqlinkProcessContext observed = new SeqlinkProcessContext(frames.channel(), frames.consumerDevice(), sequence, context);
        return SeqlinkObservation.PROCESS.observation(processConvention, DefaultSeqlinkProcessObservationConvention.INSTANCE,
                () -> observed, registry).start();
    }
}
