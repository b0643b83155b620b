package io.seqlink.spring.observation;

import io.micrometer.observation.ObservationRegistry;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which channels are observed, and how: wraps an observed channel's {@link PublishChannel} (publish side) and a
 * {@code @ChannelListener}'s frame handler on an observed channel (listener side); leaves everything else as it is, so
 * a channel that is not observed costs nothing. Immutable; any thread.
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
}
