package io.seqlink;

import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.Backends;
import io.seqlink.backend.emulated.EmulatedBackendProvider;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelAttachException;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.InvalidChannelSpecException;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.Violation;
import io.seqlink.channel.lifecycle.ChannelEvents;
import io.seqlink.channel.lifecycle.Channels;
import io.seqlink.channel.shared.AttachedChannels;
import io.seqlink.launcher.Launcher;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.topology.TopologyPolicy;
import io.seqlink.topology.TopologyReport;
import io.seqlink.topology.Transport;
import io.seqlink.topology.UnsupportedLinkException;
import io.seqlink.topology.UnsupportedLinkPolicy;
import io.seqlink.topology.VerifierSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything seqlink holds for a process: the backend, the verified topology, the channels and the
 * launcher that drives their consumers. Spring-free; the starter wraps one in a bean.
 *
 * <table>
 * <caption>Threading contract</caption>
 * <tr><th>method</th><th>who may call it</th><th>how it is kept</th></tr>
 * <tr><td>{@link #openChannel}</td><td>any thread, concurrently</td><td>the name is reserved atomically before
 *     anything is allocated: a second open of the name fails at once; a close that overlaps closes the new channel</td></tr>
 * <tr><td>{@link #close}, {@link #drainAndCloseChannels}</td><td>any thread (a listener too); {@code close} is idempotent</td>
 *     <td>every channel drains together within the drain timeout, the launcher stops within a second more;
 *     memory a listener still reads stays until it returns (the backend closes then); returns at once on
 *     interrupt, keeping the flag</td></tr>
 * <tr><td>{@link #start}, {@link #reverify}, {@link #validate}</td><td>any thread</td><td>serialized where they change state</td></tr>
 * <tr><td>the getters ({@link #channels}, {@link #channel}, {@link #topology}, ...)</td><td>any thread</td>
 *     <td>copies or immutable values</td></tr>
 * </table>
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
    private final LinkSelection links;
    private final ChannelTable channels = new ChannelTable();
    private final SpecValidation validation;
    private final RuntimeShutdown shutdown;
    private final ChannelEvents events;
    private final List<AttachedChannel> attached = new java.util.concurrent.CopyOnWriteArrayList<>();

    private SeqlinkRuntime(Builder b, Backends.Choice choice) {
        this.choice = choice;
        this.backend = choice.backend();
        this.verifierSettings = b.verifier;
        this.policy = b.policy;
        this.launcher = new Launcher(b.launcher);
        this.devices = b.devices == null || b.devices.isEmpty()
                ? IntStream.range(0, backend.deviceCount()).boxed().toList()
                : List.copyOf(b.devices);
        this.links = new LinkSelection(backend, verifierSettings, policy, devices, b.settingNames);
        this.validation = new SpecValidation(backend, devices, channels, links);
        this.shutdown = new RuntimeShutdown(backend, launcher, channels, b.drainTimeout);
        this.events = new RuntimeChannelEvents(channels, launcher, shutdown);
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
        return links.report();
    }

    /** Links a channel uses under {@link UnsupportedLinkPolicy#WARN} although they are worse than required, as "p->c". */
    public Set<String> degradedLinks() {
        return links.degradedLinks();
    }

    public Launcher launcher() {
        return launcher;
    }

    // ---- verification ----------------------------------------------------------------------------

    /** Verifies the links again (probing those channels use); replaces the report. */
    public TopologyReport reverify() {
        return links.reverify(channels());
    }

    // ---- channels --------------------------------------------------------------------------------

    /**
     * Opens a channel: checks the spec against the devices in use and the backend's real limits, picks a
     * transport per consumer from the verified links (or the forced one), applies the topology policy,
     * and registers its consumers with the launcher. The name is reserved before anything is allocated:
     * of two threads opening one name, the second gets {@link InvalidChannelSpecException} naming
     * {@code name} at once. Throws {@link InvalidChannelSpecException} listing every problem, or
     * {@link UnsupportedLinkException} under policy {@code FAIL}.
     */
    public PublishChannel openChannel(ChannelSpec spec) {
        checkOpen();
        List<Violation> violations = validate(spec, "");
        if (!violations.isEmpty()) {
            throw new InvalidChannelSpecException(String.valueOf(spec.name()), violations);
        }
        channels.reserve(spec);
        PublishChannel channel = null;
        boolean installed = false;
        try {
            Map<Integer, Transport> transports = new LinkedHashMap<>();
            for (int c : spec.consumers()) {
                transports.put(c, links.transportFor(spec, c));
            }
            List<Violation> limits = ChannelLimits.check(spec, transports, backend, "");
            if (!limits.isEmpty()) {
                throw new InvalidChannelSpecException(spec.name(), limits);
            }
            channel = Channels.open(backend, spec, transports, events);
            shutdown.channelOpened();
            installed = channels.install(channel);
            if (!installed) {
                channel.drainAndClose(Duration.ZERO);
                throw new IllegalStateException("the seqlink runtime closed while channel '" + spec.name() + "' was opening");
            }
            for (ConsumerPort p : Channels.ports(channel)) {
                launcher.register(p);
            }
            return channel;
        } finally {
            if (!installed) {
                channels.unreserve(spec.name());
            }
        }
    }

    /**
     * Attaches this process to the channel another process of the host shares ({@code ChannelSpec.Builder.share}): the
     * returned channel's {@link AttachedChannel#consumer() consumer} runs on {@link AttachSpec#device()}, driven by this
     * runtime's launcher like any consumer, and reads the frames the producer publishes after the attach. Any thread.
     * The runtime's {@link #close()} closes it.
     *
     * @throws ChannelAttachException naming the cause and the fix (no producer, wrong secret, another version, a device
     *                                not in use, a device that cannot map the shared memory); nothing changed
     */
    public AttachedChannel attachChannel(AttachSpec spec) {
        checkOpen();
        if (!devices.contains(spec.device())) {
            throw new ChannelAttachException("attach to channel '" + spec.name() + "': AttachSpec.device " + spec.device()
                    + " is not among the devices in use " + devices + "; pick one of them (AttachSpec.onDevice)");
        }
        AttachedChannel a = AttachedChannels.attach(backend, spec, launcher::register, launcher::unregister);
        attached.add(a);
        if (channels.closed()) {
            a.close();
            throw new IllegalStateException("the seqlink runtime closed while channel '" + spec.name() + "' was attaching");
        }
        return a;
    }

    /** The channels this runtime attached to ({@link #attachChannel}), closed ones included until the runtime closes. Any thread. */
    public List<AttachedChannel> attachedChannels() {
        return List.copyOf(attached);
    }

    /**
     * The latest channel this runtime attached to under {@code name} (a channel attached again after a failure comes
     * after the failed one), if any. Any thread; allocates nothing.
     */
    public Optional<AttachedChannel> attachedChannel(String name) {
        AttachedChannel latest = null;
        for (AttachedChannel a : attached) {
            if (a.name().equals(name)) {
                latest = a;
            }
        }
        return Optional.ofNullable(latest);
    }

    /**
     * Everything wrong with {@code spec} on this runtime: the spec's own rules, devices not in use,
     * a name already taken, the backend's real limits, a forced transport its links lack. Property
     * names start with {@code prefix}.
     */
    public List<Violation> validate(ChannelSpec spec, String prefix) {
        return validation.violations(spec, prefix);
    }

    /**
     * Everything wrong with each of {@code specs} on this runtime ({@link #validate(ChannelSpec, String)}, property
     * names starting with the prefix at the same index of {@code prefixes}), and, when each fits alone, what they
     * break together: the device, pinned host and (emulated) direct memory all of them need, summed. A service that
     * opens several channels checks them this way before opening any.
     */
    public List<Violation> validate(List<ChannelSpec> specs, List<String> prefixes) {
        if (specs.size() != prefixes.size()) {
            throw new IllegalArgumentException(specs.size() + " specs but " + prefixes.size() + " prefixes");
        }
        return validation.violations(specs, prefixes);
    }

    /** The open channels (not those still opening), in the order they were opened. */
    public List<PublishChannel> channels() {
        return channels.channels();
    }

    public Optional<PublishChannel> channel(String name) {
        return channels.channel(name);
    }

    // ---- life ------------------------------------------------------------------------------------

    /** Starts the launcher: consumers with listeners begin to consume. */
    public void start() {
        checkOpen();
        launcher.start();
    }

    private void checkOpen() {
        if (channels.closed()) {
            throw new IllegalStateException("the seqlink runtime is closed");
        }
    }

    /**
     * Drains every open channel together and closes them within {@code timeout}: outside
     * producers are refused at once, seqlink's listener threads may still publish until all channels are
     * quiet (so channels chained by listeners lose nothing), then every channel closes. The runtime stays
     * open. Returns a report per channel (also kept: {@link #drainReports()}); returns early on interrupt,
     * keeping the flag.
     */
    public List<DrainReport> drainAndCloseChannels(Duration timeout) {
        return shutdown.drainAndCloseChannels(timeout);
    }

    /** What the last {@link #drainAndCloseChannels} or {@link #close()} left undelivered, per channel. */
    public List<DrainReport> drainReports() {
        return shutdown.drainReports();
    }

    /**
     * Drains and closes every channel together (while the launcher still runs), stops the launcher,
     * then frees the backend: every context, stream and allocation. Keeps to the drain timeout plus at
     * most a second: a listener that does not return by then is named in the log and its channel's
     * {@link DrainReport}, and the backend closes when it returns (its memory is never freed under it).
     * Idempotent; safe from any thread, a listener's included; on interrupt it stops waiting and keeps
     * the flag.
     */
    @Override
    public void close() {
        for (AttachedChannel a : attached) {
            a.close(); // before the launcher stops: each takes its port back from it
        }
        shutdown.close();
    }

    public boolean closed() {
        return channels.closed();
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
        private SettingNames settingNames = SettingNames.JAVA;

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

        /** How long closing waits for consumers to take what was published (close takes at most a second more). */
        public Builder drainTimeout(Duration timeout) {
            this.drainTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * How the runtime's messages name the settings they advise (default {@link SettingNames#JAVA}, the builder
         * calls); a layer with its own configuration passes its property names.
         */
        public Builder settingNames(SettingNames names) {
            this.settingNames = Objects.requireNonNull(names, "names");
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
                rt.links.verify(channels.isEmpty() ? allPairs(rt.devices) : channels);
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
