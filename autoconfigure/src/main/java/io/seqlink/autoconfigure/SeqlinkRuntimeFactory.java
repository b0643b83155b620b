package io.seqlink.autoconfigure;

import io.seqlink.MissingDevicesException;
import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.SettingNames;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.Violation;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.topology.TopologyPolicy;
import io.seqlink.topology.VerifierSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a {@link SeqlinkRuntime} from {@link SeqlinkProperties}: checks every property first, opens
 * the backend and verifies the links the configured channels use, checks the channels against the
 * devices really there, then opens them. Any problem fails with one exception that lists every
 * invalid property; nothing stays open.
 */
public final class SeqlinkRuntimeFactory {

    private static final Logger log = LoggerFactory.getLogger(SeqlinkRuntimeFactory.class);

    /** The runtime's advice in Spring terms: the property a Spring user sets, not the builder call. */
    static final SettingNames PROPERTY_NAMES = channel -> channelPrefix(channel) + "transport=host-staged";

    private SeqlinkRuntimeFactory() {
    }

    /**
     * The open runtime with every configured channel open, its launcher not yet started.
     *
     * @param properties  the bound configuration
     * @param unknownKeys problems found before binding (keys that name no property), reported first
     * @param customizers applied to the builder, in order
     * @throws SeqlinkConfigurationException listing every invalid property
     * @throws io.seqlink.backend.BackendUnavailableException when {@code seqlink.backend=cuda} cannot run here
     * @throws io.seqlink.topology.UnsupportedLinkException when a link is worse than required under policy fail
     */
    public static SeqlinkRuntime create(SeqlinkProperties properties, List<Violation> unknownKeys,
            List<SeqlinkRuntimeBuilderCustomizer> customizers) {
        return create(properties, unknownKeys, customizers, Map.of(), List.of());
    }

    /**
     * {@link #create(SeqlinkProperties, List, List)} with the devices of each channel whose listener is a host
     * listener (channel name to devices, {@code -1} for every consumer): those channels open with the push to host
     * memory ({@link ChannelSpec#hostListeners}), and the specifications' customizers, applied in order after that.
     */
    public static SeqlinkRuntime create(SeqlinkProperties properties, List<Violation> unknownKeys,
            List<SeqlinkRuntimeBuilderCustomizer> customizers, Map<String, Set<Integer>> hostListeners,
            List<ChannelSpecCustomizer> specCustomizers) {
        List<Violation> problems = new ArrayList<>(unknownKeys);
        problems.addAll(SeqlinkPropertiesValidator.validate(properties));
        if (!problems.isEmpty()) {
            throw new SeqlinkConfigurationException(problems);
        }
        Map<String, ChannelSpec> specs = specs(properties, hostListeners);
        for (ChannelSpecCustomizer c : specCustomizers) {
            specs.replaceAll(c::customize);
        }
        SeqlinkRuntime.Builder builder = builder(properties, specs);
        for (SeqlinkRuntimeBuilderCustomizer c : customizers) {
            c.customize(builder);
        }
        SeqlinkRuntime runtime;
        try {
            runtime = builder.open();
        } catch (MissingDevicesException ex) {
            throw new SeqlinkConfigurationException(DeviceViolations.ofTopology(ex, properties));
        } catch (SeqlinkConfigurationException ex) {
            throw new SeqlinkConfigurationException(SeqlinkPropertiesValidator.qualified(ex.violations()));
        }
        try {
            List<Violation> channelProblems = new ArrayList<>();
            List<ChannelSpec> toCheck = new ArrayList<>();
            List<String> prefixes = new ArrayList<>();
            specs.forEach((name, spec) -> {
                if (runtime.channel(name).isEmpty()) {
                    String prefix = SeqlinkPropertiesValidator.channelPrefix(name);
                    // devices first, with the fix for this backend; the runtime's checks once the devices are right
                    List<Violation> devices = DeviceViolations.ofChannel(spec, prefix, runtime, properties);
                    if (devices.isEmpty()) {
                        toCheck.add(spec);
                        prefixes.add(prefix);
                    }
                    channelProblems.addAll(devices);
                }
            });
            // each channel against the backend's limits, then all of them together (memory they need summed)
            channelProblems.addAll(runtime.validate(toCheck, prefixes));
            if (!channelProblems.isEmpty()) {
                throw new SeqlinkConfigurationException(channelProblems);
            }
            for (Map.Entry<String, ChannelSpec> e : specs.entrySet()) {
                if (runtime.channel(e.getKey()).isEmpty()) {
                    PublishChannel ch = runtime.openChannel(e.getValue());
                    log.info("seqlink channel '{}': device {} -> {}, {} x {} B, {}, transports {}", ch.name(),
                            ch.spec().producer(), ch.consumerDevices(), ch.spec().slots(), ch.spec().slotBytes(),
                            ch.spec().delivery().name().toLowerCase(java.util.Locale.ROOT), transports(ch));
                }
            }
            attachAll(runtime, properties);
            return runtime;
        } catch (RuntimeException ex) {
            runtime.close();
            throw ex;
        }
    }

    /**
     * Attaches to every channel under {@code seqlink.attach}, in configuration order; the first that fails stops startup
     * ({@link ChannelAttachFailedException}, naming the properties), the runtime's close detaching those attached before.
     */
    private static void attachAll(SeqlinkRuntime runtime, SeqlinkProperties properties) {
        properties.attach().forEach((name, a) -> {
            io.seqlink.channel.AttachSpec spec = ShareSettings.attach(name, a);
            try {
                io.seqlink.channel.AttachedChannel in = runtime.attachChannel(spec);
                log.info("seqlink channel '{}' attached: the producer's share in {}, consumed on device {}, seat {}, epoch {}, "
                        + "from frame {} on", name, spec.directory(), spec.device(), in.seat(), in.epoch(), in.startsAfter() + 1);
            } catch (io.seqlink.channel.ChannelAttachException e) {
                throw new ChannelAttachFailedException(name, SeqlinkPropertiesValidator.attachPrefix(name), spec.directory(), e);
            }
        });
    }

    /** The channel specifications the properties describe, by name, in configuration order. */
    public static Map<String, ChannelSpec> specs(SeqlinkProperties properties) {
        return specs(properties, Map.of());
    }

    static Map<String, ChannelSpec> specs(SeqlinkProperties properties, Map<String, Set<Integer>> hostListeners) {
        Map<String, ChannelSpec> specs = new LinkedHashMap<>();
        properties.channels().forEach((name, channel) -> {
            Set<Integer> hosts = hostListeners.get(name);
            List<Integer> consumers = channel.consumers() == null ? List.of() : channel.consumers();
            specs.put(name, channel.toSpec(name, hosts == null ? List.of() : HostListenerScan.consumersNamed(hosts, consumers),
                    ShareSettings.share(name, channel.share())));
        });
        return specs;
    }

    private static String channelPrefix(String channel) {
        return "<name>".equals(channel) ? "seqlink.channels.<name>." : SeqlinkPropertiesValidator.channelPrefix(channel);
    }

    static SeqlinkRuntime.Builder builder(SeqlinkProperties p, Map<String, ChannelSpec> specs) {
        SeqlinkProperties.Verify v = p.verify();
        SeqlinkProperties.Launcher l = p.launcher();
        SeqlinkRuntime.Builder b = SeqlinkRuntime.builder()
                .backend(p.backend())
                .emulated(emulatedTopology(p.emulated()))
                .devices(p.topology().devices().isEmpty() ? null : p.topology().devices())
                .verifier(new VerifierSettings(v.enabled(), v.maxAtomicLatency().toNanos(), v.minScalingRatio(), v.timeout()))
                .policy(new TopologyPolicy(p.topology().requiredLinkClass(), p.topology().onUnsupported()))
                .launcher(new LauncherSettings(l.idleStrategy(), l.batchSize(), l.watchdogPeriod()))
                .drainTimeout(p.shutdown().drainTimeout())
                .settingNames(PROPERTY_NAMES)
                .openChannels(false);
        specs.values().forEach(b::channel);
        return b;
    }

    /** The simulated machine {@code seqlink.emulated} describes, once validated. */
    public static EmulatedTopology emulatedTopology(SeqlinkProperties.Emulated e) {
        EmulatedTopology.Builder b = EmulatedTopology.builder(e.deviceCount()).streamMode(e.streamMode());
        e.links().forEach((key, mode) -> {
            EmulatedLinkKey k = validKey(key);
            if (k.bidirectional()) {
                b.link(k.accessor(), k.owner(), mode);
            } else {
                b.directed(k.accessor(), k.owner(), mode);
            }
        });
        e.latency().forEach((key, latency) -> {
            EmulatedLinkKey k = validKey(key);
            b.latency(k.accessor(), k.owner(), latency.toNanos());
        });
        return b.build();
    }

    private static EmulatedLinkKey validKey(String key) {
        return Objects.requireNonNull(EmulatedLinkKey.parse(key), "SeqlinkPropertiesValidator rejects a key naming no device pair");
    }

    private static Map<Integer, String> transports(PublishChannel ch) {
        Map<Integer, String> t = new LinkedHashMap<>();
        for (int d : ch.consumerDevices()) {
            t.put(d, ch.consumer(d).transport().name().toLowerCase(java.util.Locale.ROOT));
        }
        return t;
    }
}
