package io.seqlink;

import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.Backends;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.emulated.EmulatedBackendProvider;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelEvents;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.Channels;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.InvalidChannelSpecException;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.Violation;
import io.seqlink.launcher.Launcher;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.topology.LinkClass;
import io.seqlink.topology.LinkVerdict;
import io.seqlink.topology.TopologyPolicy;
import io.seqlink.topology.TopologyReport;
import io.seqlink.topology.TopologyVerifier;
import io.seqlink.topology.Transport;
import io.seqlink.topology.UnsupportedLinkException;
import io.seqlink.topology.UnsupportedLinkPolicy;
import io.seqlink.topology.VerifierSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything seqlink holds for a process: the backend, the verified topology, the channels and the
 * launcher that drives their consumers. Spring-free; the starter wraps one in a bean.
 *
 * <pre>{@code
 * try (SeqlinkRuntime rt = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open()) {
 *     PublishChannel ch = rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).build());
 *     ch.consumer(1).subscribe(frame -> System.out.println(frame.sequence()));
 *     rt.start();
 *     ch.offer(new byte[] {1, 2, 3}, 0, 3);
 * }
 * }</pre>
 */
public final class SeqlinkRuntime implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SeqlinkRuntime.class);

    private final Backend backend;
    private final Backends.Choice choice;
    private final List<Integer> devices;
    private final VerifierSettings verifierSettings;
    private final TopologyPolicy policy;
    private final Launcher launcher;
    private final Map<String, PublishChannel> channels = new LinkedHashMap<>();
    private final Set<String> degradedLinks = ConcurrentHashMap.newKeySet();
    private final Duration drainTimeout;
    private volatile TopologyReport report;
    private volatile boolean closed;

    private SeqlinkRuntime(Builder b, Backends.Choice choice) {
        this.choice = choice;
        this.backend = choice.backend();
        this.verifierSettings = b.verifier;
        this.policy = b.policy;
        this.drainTimeout = b.drainTimeout;
        this.launcher = new Launcher(b.launcher);
        this.devices = b.devices == null || b.devices.isEmpty()
                ? IntStream.range(0, backend.deviceCount()).boxed().toList()
                : List.copyOf(b.devices);
    }

    public static Builder builder() {
        return new Builder();
    }

    // ---- description ----------------------------------------------------------------------------

    public Backend backend() {
        return backend;
    }

    public BackendKind backendKind() {
        return backend.kind();
    }

    /** Why this backend was chosen, in one calm line. */
    public String backendReason() {
        return choice.reason();
    }

    /** The backend choice in full: the reason, the driver probe's whole finding and the failure behind a fallback. */
    public Backends.Choice backendChoice() {
        return choice;
    }

    public BackendSelection requestedBackend() {
        return choice.requested();
    }

    /** The devices in use. */
    public List<Integer> devices() {
        return devices;
    }

    public TopologyPolicy policy() {
        return policy;
    }

    public VerifierSettings verifierSettings() {
        return verifierSettings;
    }

    /** The last verification's report; never recomputed by reading it. */
    public TopologyReport topology() {
        return report;
    }

    /** Links a channel uses under {@link UnsupportedLinkPolicy#WARN} although they are worse than required, as "p->c". */
    public Set<String> degradedLinks() {
        return Set.copyOf(degradedLinks);
    }

    public Launcher launcher() {
        return launcher;
    }

    // ---- verification ----------------------------------------------------------------------------

    /** Verifies the links again (probing those channels use, and {@code extraPairs}); replaces the report. */
    public synchronized TopologyReport reverify() {
        Set<Integer> pairs = new LinkedHashSet<>();
        synchronized (channels) {
            for (PublishChannel ch : channels.values()) {
                for (int c : ch.consumerDevices()) {
                    pairs.add(TopologyVerifier.pairKey(ch.spec().producer(), c));
                }
            }
        }
        report = new TopologyVerifier(backend, verifierSettings).verify(devices, pairs);
        return report;
    }

    private void verify(Collection<ChannelSpec> specs) {
        Set<Integer> pairs = new LinkedHashSet<>();
        for (ChannelSpec s : specs) {
            if (s.consumers() != null) {
                for (Integer c : s.consumers()) {
                    if (c != null) {
                        pairs.add(TopologyVerifier.pairKey(s.producer(), c));
                    }
                }
            }
        }
        report = new TopologyVerifier(backend, verifierSettings).verify(devices, pairs);
    }

    /** The verdict for a pair, probing it now if the report holds only driver attributes for it. */
    private synchronized LinkVerdict verdict(int producer, int consumer) {
        Optional<LinkVerdict> v = report.link(producer, consumer);
        boolean judgedOnAttributesOnly = v.isPresent() && verifierSettings.enabled() && !v.get().probed()
                && v.get().verdict() == LinkClass.PEER_ATOMIC;
        if (v.isPresent() && !judgedOnAttributesOnly) {
            return v.get();
        }
        LinkVerdict fresh = new TopologyVerifier(backend, verifierSettings).verifyLink(producer, consumer, true);
        List<LinkVerdict> links = new ArrayList<>();
        for (LinkVerdict old : report.links()) {
            links.add(old.producer() == producer && old.consumer() == consumer ? fresh : old);
        }
        report = new TopologyReport(report.backend(), report.devices(), links, report.verifiedAt(), report.elapsedMillis());
        return fresh;
    }

    // ---- channels --------------------------------------------------------------------------------

    /**
     * Opens a channel: checks the spec against the devices in use, picks a transport per consumer from
     * the verified links (or the forced one), applies the topology policy, and registers its consumers
     * with the launcher. Throws {@link InvalidChannelSpecException} listing every problem, or
     * {@link UnsupportedLinkException} under policy {@code FAIL}.
     */
    public PublishChannel openChannel(ChannelSpec spec) {
        checkOpen();
        List<Violation> violations = validate(spec, "");
        if (!violations.isEmpty()) {
            throw new InvalidChannelSpecException(String.valueOf(spec.name()), violations);
        }
        Map<Integer, Transport> transports = new LinkedHashMap<>();
        for (int c : spec.consumers()) {
            transports.put(c, transportFor(spec, c));
        }
        PublishChannel channel = Channels.open(backend, spec, transports, events);
        synchronized (channels) {
            channels.put(spec.name(), channel);
        }
        for (ConsumerPort p : Channels.ports(channel)) {
            launcher.register(p);
        }
        return channel;
    }

    /**
     * Everything wrong with {@code spec} on this runtime: the spec's own rules, devices not in use,
     * a name already taken. Property names start with {@code prefix}.
     */
    public List<Violation> validate(ChannelSpec spec, String prefix) {
        List<Violation> v = new ArrayList<>(spec.validate(prefix));
        if (spec.producer() >= 0 && !devices.contains(spec.producer())) {
            v.add(new Violation(prefix + "producer", "producer device " + spec.producer() + " is not among the devices in use "
                    + devices + " (" + backend.description() + ")", "pick one of " + devices
                    + ", or open the runtime with that device"));
        }
        if (spec.consumers() != null) {
            for (Integer c : spec.consumers()) {
                if (c != null && c >= 0 && !devices.contains(c)) {
                    v.add(new Violation(prefix + "consumers", "consumer device " + c + " is not among the devices in use "
                            + devices + " (" + backend.description() + ")", "pick devices from " + devices
                            + ", or open the runtime with that device"));
                }
            }
        }
        synchronized (channels) {
            if (spec.name() != null && channels.containsKey(spec.name())) {
                v.add(new Violation(prefix + "name", "a channel named '" + spec.name() + "' is already open",
                        "give each channel its own name"));
            }
        }
        if (v.isEmpty() && spec.transport() != Transport.AUTO) {
            for (int c : spec.consumers()) {
                String why = forcedTransportProblem(spec.transport(), spec.producer(), c);
                if (why != null) {
                    v.add(new Violation(prefix + "transport", why, "use transport auto, or a transport this link supports"));
                }
            }
        }
        return v;
    }

    private String forcedTransportProblem(Transport t, int producer, int consumer) {
        switch (t) {
            case SAME_DEVICE:
                return producer == consumer ? null : "transport same-device needs consumer " + consumer + " on device " + producer;
            case PEER_ATOMIC:
                return producer == consumer || backend.linkAttributes(consumer, producer).accessSupported() ? null
                        : "transport peer-atomic needs device " + consumer + " to address device " + producer
                        + "'s memory, which the driver does not allow";
            case PEER_COPY:
                return producer == consumer || backend.linkAttributes(producer, consumer).accessSupported() ? null
                        : "transport peer-copy needs device " + producer + " to write device " + consumer
                        + "'s memory, which the driver does not allow";
            default:
                return null;
        }
    }

    private Transport transportFor(ChannelSpec spec, int consumer) {
        int producer = spec.producer();
        if (spec.transport() != Transport.AUTO) {
            return spec.transport();
        }
        if (producer == consumer) {
            return Transport.SAME_DEVICE;
        }
        LinkVerdict v = verdict(producer, consumer);
        if (v.verdict().satisfies(policy.required())) {
            return Transport.of(v.verdict());
        }
        switch (policy.onUnsupported()) {
            case FAIL:
                throw new UnsupportedLinkException(spec.name(), v, policy.required());
            case WARN:
                degradedLinks.add(producer + "->" + consumer);
                log.warn("seqlink channel '{}': link {} -> {} is {} (required {}), using {}: {}", spec.name(), producer,
                        consumer, v.verdict(), policy.required(), Transport.of(v.verdict()), v.reason());
                return Transport.of(v.verdict());
            case FALLBACK:
            default:
                log.info("seqlink channel '{}': link {} -> {} is {} (required {}), falling back to {}", spec.name(), producer,
                        consumer, v.verdict(), policy.required(), Transport.of(v.verdict()));
                return Transport.of(v.verdict());
        }
    }

    public List<PublishChannel> channels() {
        synchronized (channels) {
            return List.copyOf(channels.values());
        }
    }

    public Optional<PublishChannel> channel(String name) {
        synchronized (channels) {
            return Optional.ofNullable(channels.get(name));
        }
    }

    private final ChannelEvents events = new ChannelEvents() {
        @Override
        public void channelFailed(PublishChannel channel, Throwable cause, int device) {
            if (cause instanceof DeviceException d && d.sticky()) {
                deviceFailed(d.device() >= 0 ? d.device() : device, cause);
            }
        }

        @Override
        public void deviceFailed(int device, Throwable cause) {
            for (PublishChannel ch : channels()) {
                if (ch.spec().producer() == device) {
                    Channels.fail(ch, cause, device);
                } else if (ch.consumerDevices().contains(device)) {
                    Channels.consumerDeviceLost(ch, device, cause);
                }
            }
        }

        @Override
        public void channelClosed(PublishChannel channel) {
            for (ConsumerPort p : Channels.ports(channel)) {
                launcher.unregister(p);
            }
            // a closed channel gives its name back, so a channel of the same name can be opened again
            synchronized (channels) {
                channels.remove(channel.name(), channel);
            }
        }
    };

    // ---- life ------------------------------------------------------------------------------------

    /** Starts the launcher: consumers with listeners begin to consume. */
    public void start() {
        checkOpen();
        launcher.start();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the seqlink runtime is closed");
        }
    }

    /**
     * Drains and closes every channel (while the launcher still runs), stops the launcher, then frees
     * the backend: every context, stream and allocation.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (PublishChannel ch : channels()) {
            if (ch.state() == io.seqlink.channel.ChannelState.CLOSED) {
                continue; // drained and closed by its owner already; its memory is freed
            }
            try {
                ch.drainAndClose(drainTimeout);
            } catch (RuntimeException ex) {
                log.warn("seqlink: closing channel '{}' failed: {}", ch.name(), ex.toString());
            }
        }
        launcher.stop();
        backend.close();
        log.info("seqlink runtime closed");
    }

    public boolean closed() {
        return closed;
    }

    /** Builds and opens a {@link SeqlinkRuntime}. */
    public static final class Builder {
        private BackendSelection backend = BackendSelection.AUTO;
        private final List<BackendProvider> providers = new ArrayList<>();
        private @Nullable List<Integer> devices;
        private VerifierSettings verifier = VerifierSettings.defaults();
        private TopologyPolicy policy = TopologyPolicy.lenient();
        private LauncherSettings launcher = LauncherSettings.defaults();
        private Duration drainTimeout = Duration.ofSeconds(10);
        private final List<ChannelSpec> channels = new ArrayList<>();
        private boolean openChannels = true;

        public Builder backend(BackendSelection selection) {
            this.backend = Objects.requireNonNull(selection, "selection");
            return this;
        }

        /** The topology of the emulated backend, used when it is chosen (default: two devices joined by NVLink). */
        public Builder emulated(EmulatedTopology topology) {
            return backendProvider(new EmulatedBackendProvider(Objects.requireNonNull(topology, "topology")));
        }

        /**
         * A provider of one backend kind, used instead of the class path's (found by {@link java.util.ServiceLoader});
         * a later provider of the same kind replaces an earlier one.
         */
        public Builder backendProvider(BackendProvider provider) {
            Objects.requireNonNull(provider, "provider");
            providers.removeIf(p -> p.kind() == provider.kind());
            providers.add(provider);
            return this;
        }

        /** Devices in use ({@code null} or empty, the default: all the backend has). */
        public Builder devices(@Nullable List<Integer> devices) {
            this.devices = devices;
            return this;
        }

        public Builder verifier(VerifierSettings settings) {
            this.verifier = Objects.requireNonNull(settings, "settings");
            return this;
        }

        public Builder policy(TopologyPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        public Builder launcher(LauncherSettings settings) {
            this.launcher = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** How long closing waits for consumers to take what was published. */
        public Builder drainTimeout(Duration timeout) {
            this.drainTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** Channels to verify links for and open with the runtime. */
        public Builder channel(ChannelSpec spec) {
            channels.add(Objects.requireNonNull(spec, "spec"));
            return this;
        }

        /**
         * Whether {@link #open()} also opens the channels given to {@link #channel(ChannelSpec)} (the
         * default). With {@code false} their links are verified but the channels are not opened, so a
         * caller can {@link SeqlinkRuntime#validate(ChannelSpec, String) validate} them all first and
         * report every problem at once, then {@link SeqlinkRuntime#openChannel(ChannelSpec) open} them.
         */
        public Builder openChannels(boolean open) {
            this.openChannels = open;
            return this;
        }

        /**
         * Opens the backend, checks the devices, verifies the links the channels need (or every link if
         * none are given), and opens the channels. On failure nothing stays open.
         */
        public SeqlinkRuntime open() {
            Backends.Choice choice = Backends.open(backend, providers);
            SeqlinkRuntime rt = null;
            try {
                rt = new SeqlinkRuntime(this, choice);
                List<Integer> missing = rt.devices.stream().filter(d -> d < 0 || d >= choice.backend().deviceCount()).toList();
                if (!missing.isEmpty()) {
                    throw new MissingDevicesException(choice.backend().kind(), choice.backend().description(),
                            choice.backend().deviceCount(), missing);
                }
                log.info("seqlink runtime: {} ({}), devices {}", choice.backend().description(), choice.reason(), rt.devices);
                rt.verify(channels.isEmpty() ? allPairs(rt.devices) : channels);
                if (openChannels) {
                    for (ChannelSpec spec : channels) {
                        rt.openChannel(spec);
                    }
                }
                return rt;
            } catch (RuntimeException ex) {
                if (rt != null) {
                    rt.close();
                } else {
                    choice.backend().close();
                }
                throw ex;
            }
        }

        private static List<ChannelSpec> allPairs(List<Integer> devices) {
            List<ChannelSpec> specs = new ArrayList<>();
            for (int p : devices) {
                List<Integer> others = devices.stream().filter(d -> d != p).toList();
                if (!others.isEmpty()) {
                    specs.add(ChannelSpec.builder("all-" + p).producer(p).consumers(others).build());
                }
            }
            return specs;
        }
    }
}
