package io.seqlink.spring.health;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachedChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import io.seqlink.channel.PublishChannel;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;

/**
 * The {@code seqlink} health composite: a {@code topology} child and one child per channel, named
 * after it, the channels attached from other processes included ({@link AttachedChannelHealthIndicator}) (channel names never contain {@code /}, and {@code topology} is reserved). The children
 * follow the runtime: channels opened after startup appear, closed ones leave. Every child reads
 * cached state only.
 */
public class SeqlinkHealthContributor implements CompositeHealthContributor {

    /** The name of the topology child. */
    public static final String TOPOLOGY = "topology";

    private final SeqlinkRuntime runtime;
    private final SeqlinkHealthSettings settings;
    private final TopologyHealthIndicator topology;

    public SeqlinkHealthContributor(SeqlinkRuntime runtime, SeqlinkHealthSettings settings) {
        this.runtime = runtime;
        this.settings = settings;
        this.topology = new TopologyHealthIndicator(runtime, settings);
    }

    @Override
    public @Nullable HealthContributor getContributor(String name) {
        if (TOPOLOGY.equals(name)) {
            return topology;
        }
        HealthContributor local = runtime.channel(name).map(this::indicator).orElse(null);
        if (local != null) {
            return local;
        }
        return attached(name);
    }

    private @Nullable HealthContributor attached(String name) {
        return runtime.attachedChannel(name).map(AttachedChannelHealthIndicator::new).orElse(null);
    }

    @Override
    public Stream<HealthContributors.Entry> stream() {
        Map<String, AttachedChannel> attached = new LinkedHashMap<>();
        runtime.attachedChannels().forEach(a -> attached.put(a.name(), a)); // the latest of each name
        return Stream.of(Stream.of(new HealthContributors.Entry(TOPOLOGY, topology)),
                runtime.channels().stream().filter(ch -> !TOPOLOGY.equals(ch.name()))
                        .map(ch -> new HealthContributors.Entry(ch.name(), indicator(ch))),
                attached.values().stream().filter(a -> !TOPOLOGY.equals(a.name()) && runtime.channel(a.name()).isEmpty())
                        .map(a -> new HealthContributors.Entry(a.name(), new AttachedChannelHealthIndicator(a))))
                .flatMap(s -> s);
    }

    private ChannelHealthIndicator indicator(PublishChannel channel) {
        return new ChannelHealthIndicator(runtime, channel, settings);
    }
}
