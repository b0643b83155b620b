package io.seqlink.autoconfigure;

import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology.StreamMode;
import io.seqlink.backend.emulated.LinkMode;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.ReadMode;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.topology.LinkClass;
import io.seqlink.topology.Transport;
import io.seqlink.topology.UnsupportedLinkPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of seqlink: the backend, the devices and links it may use, how links are verified,
 * the channels, and how their consumers are driven. Bound once at startup; invalid values fail
 * startup with a report naming every offending property.
 *
 * @param enabled  Whether to enable seqlink. When false, no runtime, channel, listener, health, endpoint or
 *                 metrics bean is created.
 * @param backend  Backend to run on: 'auto' uses CUDA when a driver and a device answer and the emulated backend
 *                 otherwise (saying so in the log), 'cuda' fails startup without a usable driver, 'emulated'
 *                 always runs the pure-Java emulation.
 * @param topology Devices in use and what channels require of the links between them.
 * @param verify   How the startup verifier proves each link a channel uses.
 * @param emulated The simulated machine used by the emulated backend.
 * @param channels Channels to open at startup, by name. Each becomes a PublishChannel bean qualified by that name
 *                 (inject it with @Qualifier("name")) and named after it unless another bean has the name. A
 *                 name is 1 to 64 letters, digits, '-' or '_'.
 * @param attach   Channels that another process of this host shares (its seqlink.channels.<name>.share), attached to
 *                 at startup by name. Each gives @ChannelListener(channel = "<name>") methods as a channel of this
 *                 process does; a name may not also be under seqlink.channels.
 * @param launcher How the launcher drives consumers.
 * @param listener How @ChannelListener methods are run and retried.
 * @param health   When the 'seqlink' health contributor reports a degraded state.
 * @param shutdown What happens to in-flight frames when the application stops.
 * @param metrics  How seqlink's meters are published.
 * @param observation Which channels record Micrometer observations (traces through frames), by channel name.
 * @param failOnUnknownProperties Whether a seqlink.* key of the configuration that names no property (a
 *                 misspelling such as 'slot-sise') fails startup, naming the key and the nearest valid one. When
 *                 false, such keys are logged as a warning and ignored (e.g. to run a configuration written for a
 *                 newer version). Keys from OS environment variables are only warned about.
 */
@ConfigurationProperties("seqlink")
public record SeqlinkProperties(@DefaultValue("true") boolean enabled, @DefaultValue("auto") BackendSelection backend,
        @DefaultValue Topology topology, @DefaultValue Verify verify, @DefaultValue Emulated emulated,
        Map<String, Channel> channels, Map<String, Attach> attach, @DefaultValue Launcher launcher, @DefaultValue Listener listener,
        @DefaultValue Health health, @DefaultValue Shutdown shutdown, @DefaultValue Metrics metrics, @DefaultValue Observation observation,
        @DefaultValue("true") boolean failOnUnknownProperties) {

    public SeqlinkProperties {
        channels = channels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(channels));
        attach = attach == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(attach));
    }

    /**
     * Devices in use and what channels require of the links between them.
     *
     * @param devices           Device ordinals seqlink may use. Empty means every device the backend has.
     * @param requiredLinkClass Least link class a channel may use without the unsupported-link policy stepping in:
     *                          'peer-atomic' (native peer atomics, measured fast), 'peer-copy' (peer access without
     *                          usable atomics) or 'host-staged' (any link; frames may go through host memory).
     * @param onUnsupported     What to do when a channel's link is worse than the required link class: 'fail'
     *                          refuses to start, 'fallback' uses the best transport the link supports and stays UP,
     *                          'warn' does the same, logs a warning and reports health DEGRADED.
     */
    public record Topology(List<Integer> devices, @DefaultValue("host-staged") LinkClass requiredLinkClass,
            @DefaultValue("fail") UnsupportedLinkPolicy onUnsupported) {

        public Topology {
            devices = devices == null ? List.of() : Collections.unmodifiableList(new java.util.ArrayList<>(devices));
        }
    }

    /**
     * How the startup verifier proves each link a channel uses.
     *
     * @param enabled          Whether to probe links (functional check, remote-atomic latency and scaling). When
     *                         false, verdicts come from the driver's attributes alone.
     * @param maxAtomicLatency Highest acceptable mean latency of one remote release atomic add. Slower links are
     *                         judged to proxy their atomics and do not get the peer-atomic transport.
     * @param minScalingRatio  Lowest acceptable ratio of remote-atomic throughput at the most threads to that at one
     *                         thread. A lower ratio means the atomic path collapses under concurrency.
     * @param timeout          Longest time probing one link may take.
     */
    public record Verify(@DefaultValue("true") boolean enabled, @DefaultValue("3us") Duration maxAtomicLatency,
            @DefaultValue("1.0") double minScalingRatio, @DefaultValue("10s") Duration timeout) {
    }

    /**
     * The simulated machine used by the emulated backend. Ignored when the CUDA backend runs.
     *
     * @param deviceCount Number of simulated devices, 1 to 64.
     * @param links       How simulated device pairs are linked, by pair: 'a-b' sets both directions between devices
     *                    a and b, 'a-to-b' only device a reaching device b's memory. Values: 'nvlink' (peer access
     *                    with native atomics), 'nvlink-proxied' (reports native atomics but proxies them: slow),
     *                    'pcie-peer' (peer access without native atomics), 'host-only' (no peer access). Pairs not
     *                    listed are 'nvlink'.
     * @param latency     Latency injected into every remote access between two simulated devices, by pair 'a-b'
     *                    (both directions). Links set to 'nvlink-proxied' get 4us unless set here.
     * @param streamMode  How simulated streams run their work: 'inline' on the enqueuing thread (fastest) or
     *                    'threaded' on a worker thread per stream (asynchronous, like a GPU).
     */
    public record Emulated(@DefaultValue("2") int deviceCount, Map<String, LinkMode> links, Map<String, Duration> latency,
            @DefaultValue("inline") StreamMode streamMode) {

        public Emulated {
            links = links == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(links));
            latency = latency == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(latency));
        }
    }

    /**
     * One channel: a ring of slots on the producer device that the consumer devices read.
     *
     * @param producer               Device that writes frames.
     * @param consumers              Devices that read every frame: at least one, each listed once. A device runs one
     *                               consumer per channel.
     * @param slots                  Number of slots in the ring, 2 to 1048576.
     * @param slotSize               Largest frame payload, 1B to 1073741632B (1 GiB - 448 B). The ring occupies slots
     *                               times this (plus a 64-byte header per slot, in 128-byte lines), at most 2 GiB - 1 B,
     *                               on the producer device, in pinned host memory, and again on each consumer device in
     *                               copy read mode.
     * @param delivery               What each consumer is promised: 'lossless' (every frame reaches every consumer; a
     *                               slow consumer back-pressures the producer) or 'latest' (the producer never waits; a
     *                               lapped consumer skips to the newest frames and counts what it missed).
     * @param readMode               How consumers get at frames: 'copy' into a ring on the consumer's device, or
     *                               'direct' in place over the link (only with lossless delivery).
     * @param transport              Transport per consumer: 'auto' follows the verifier's verdict for each link; or force
     *                               'peer-atomic', 'peer-copy', 'host-staged', or 'same-device' (every consumer on the
     *                               producer's device).
     * @param maxPublishBatch        Most frames claimed between two publishes, 1 to slots - 1. Default: a quarter of the
     *                               ring, 1 to 16.
     * @param backpressureTimeout    How long a blocking claim waits for a free slot before it reports BACK_PRESSURED;
     *                               zero means it does not wait.
     * @param stallTimeout           A consumer with frames waiting and no acknowledgement for this long is reported
     *                               stalled.
     * @param consumerFailurePolicy  What happens when a consumer's device fails: 'fail-channel' closes the channel
     *                               (health DOWN), 'drop-consumer' stops waiting for that consumer, 'keep-waiting' keeps
     *                               it in the backpressure until an operator acts.
     * @param armedRounds            Whether an idle consumer with a host listener its stream stages frames for, or
     *                               with a device listener that accepts armed rounds, keeps its next round armed on
     *                               its stream behind a stream wait on the frame's doorbell, so the round runs when the
     *                               frame is published, without a host hop; 'false' starts every round when the
     *                               launcher sees the frame published. A channel whose every consumer has a host
     *                               listener keeps its ring in host memory and arms nothing.
     * @param share                  How consumer processes of this host attach to the channel.
     */
    public record Channel(@DefaultValue("0") int producer, List<Integer> consumers, @DefaultValue("64") int slots,
            @DefaultValue("64KB") DataSize slotSize, @DefaultValue("lossless") Delivery delivery,
            @DefaultValue("copy") ReadMode readMode, @DefaultValue("auto") Transport transport, Integer maxPublishBatch,
            @DefaultValue("1s") Duration backpressureTimeout, @DefaultValue("5s") Duration stallTimeout,
            @DefaultValue("fail-channel") ConsumerFailurePolicy consumerFailurePolicy,
            @DefaultValue("true") boolean armedRounds, @DefaultValue Share share) {

        /** The channel's specification under {@code name}, not shared; unchecked (the runtime validates it). */
        public ChannelSpec toSpec(String name) {
            return toSpec(name, List.of(), null);
        }

        /**
         * {@link #toSpec(String)} with the consumers whose listener is a host listener (known from the application's
         * {@code @ChannelListener} methods, not a property): a lossless channel pushes their frames into host memory;
         * and the share with consumer processes ({@link ShareSettings#share}), or {@code null} when it is not shared.
         */
        public ChannelSpec toSpec(String name, List<Integer> hostListeners, io.seqlink.channel.@Nullable ChannelShare share) {
            ChannelSpec.Builder b = ChannelSpec.builder(name)
                    .producer(producer)
                    .consumers(consumers)
                    .slots(slots)
                    .slotBytes(slotSize == null ? 0 : slotSize.toBytes())
                    .delivery(delivery)
                    .readMode(readMode)
                    .transport(transport)
                    .backpressureTimeout(backpressureTimeout)
                    .stallTimeout(stallTimeout)
                    .consumerFailurePolicy(consumerFailurePolicy)
                    .armedRounds(armedRounds)
                    .hostListeners(hostListeners)
                    .share(share);
            if (maxPublishBatch != null) {
                b.maxPublishBatch(maxPublishBatch);
            }
            return b.build();
        }
    }

    /**
     * How a channel is shared with consumer processes of this host: they attach to it by name (seqlink.attach.<name> in
     * their configuration), read its ring in place and hold the producer back like its own consumers while attached.
     *
     * @param enabled          Whether consumer processes of this host may attach to the channel. A shared channel must
     *                         be lossless; its consumers may then be empty (only other processes consume it).
     * @param directory        Directory of the channel's shared-memory region (<name>.shm) and attach socket
     *                         (<name>.sock), created owner-only (700) when missing; an existing one must be this user's
     *                         and closed to group and others. Default: /dev/shm/seqlink-<user> (the JVM's temporary
     *                         directory where /dev/shm does not exist).
     * @param secretFile       File holding the secret an attaching process must prove (at least 16 bytes, e.g. from
     *                         'openssl rand -base64 32'), readable by its owner only (chmod 600). Required when enabled.
     * @param seats            Most consumer processes attached at once, 1 to 64.
     * @param heartbeat        How often each side raises its heartbeat; a dead peer is noticed when its connection ends,
     *                         or once its heartbeat has not moved for the stall timeout. Default: a tenth of the
     *                         channel's stall timeout.
     * @param handshakeTimeout How long an attach may take before the producer closes the connection.
     */
    public record Share(@DefaultValue("false") boolean enabled, @Nullable Path directory, @Nullable Path secretFile,
            @DefaultValue("4") int seats, @Nullable Duration heartbeat, @DefaultValue("5s") Duration handshakeTimeout) {
    }

    /**
     * A channel another process of this host shares, attached to at startup. Its consumer runs on a device of this
     * process, driven by its launcher; it gets the frames published after the attach.
     *
     * @param directory      The producer's share directory (its seqlink.channels.<name>.share.directory). Default:
     *                       /dev/shm/seqlink-<user> (the JVM's temporary directory where /dev/shm does not exist).
     * @param secretFile     File holding the channel's secret, the same as the producer's share.secret-file, readable
     *                       by its owner only (chmod 600). Required.
     * @param device         Device of this process whose launcher runs the consumer.
     * @param stallTimeout   How long the producer's heartbeat may stand still before the channel turns FAILED (health
     *                       DOWN). Default: the producer's stall timeout, as the handshake gives it.
     * @param connectTimeout How long the attach (connect and handshake) may take at startup, and each attach again.
     * @param reattachInterval How often, once the channel failed (its producer service stopped, died or restarted), to
     *                       try to attach again and bind its listeners to the new attachment, which gets the frames
     *                       published after it; 0: never (the channel stays FAILED until this service restarts).
     */
    public record Attach(@Nullable Path directory, @Nullable Path secretFile, @DefaultValue("0") int device,
            @Nullable Duration stallTimeout, @DefaultValue("10s") Duration connectTimeout,
            @DefaultValue("1s") Duration reattachInterval) {
    }

    /**
     * How the launcher drives consumers: one loop thread per consumer device.
     *
     * @param idleStrategy   What a device loop does when a pass found no frames: 'backoff' (spin 100 µs after a pass that found work, then spin, yield, then park up
     *                       to 100 µs; after 100 ms with every consumer caught up, doze until a publish wakes the
     *                       loop: an idle service costs well under 1 % of a core, and the first frame after a quiet
     *                       period waits for its loop thread to wake), 'low-latency' (the same without the doze: a few % of a core per device
     *                       loop while idle), 'busy-spin' (lowest latency, a full core per device), 'yield', or 'park'
     *                       (100 µs).
     * @param batchSize      Most frames one consume round takes, 1 to 65536.
     * @param watchdogPeriod How often the stall watchdog looks at every consumer.
     */
    public record Launcher(@DefaultValue("backoff") IdleStrategyKind idleStrategy, @DefaultValue("32") int batchSize,
            @DefaultValue("100ms") Duration watchdogPeriod) {
    }

    /**
     * How @ChannelListener methods are run.
     *
     * @param autoStartup Whether to start the launcher, and so the listeners, when the application context is ready.
     * @param retry       How a listener that throws is retried before its frame goes to the FrameErrorHandler bean.
     */
    public record Listener(@DefaultValue("true") boolean autoStartup, @DefaultValue Retry retry) {
    }

    /**
     * How a listener that throws is retried, on its consumer's launcher thread, before its frame is handed to the
     * FrameErrorHandler bean (the dead-letter hook).
     *
     * @param maxAttempts    Deliveries in all, at least 1 (1 means no retry).
     * @param initialBackoff Wait before the second delivery.
     * @param multiplier     Growth of the wait from one retry to the next, at least 1.
     * @param maxBackoff     Longest wait between two deliveries; at least the initial backoff.
     */
    public record Retry(@DefaultValue("3") int maxAttempts, @DefaultValue("10ms") Duration initialBackoff,
            @DefaultValue("2.0") double multiplier, @DefaultValue("1s") Duration maxBackoff) {
    }

    /**
     * When the 'seqlink' health contributor reports a degraded state.
     *
     * @param lagThreshold   Fraction of a channel's slots, above 0 and at most 1: a consumer whose lag reaches it is
     *                       reported lagging, and its channel DEGRADED.
     * @param failOnDegraded Whether to report DOWN instead of DEGRADED for a degraded link, a lagging or stalled
     *                       consumer, or a dropped consumer.
     */
    public record Health(@DefaultValue("0.75") double lagThreshold, @DefaultValue("false") boolean failOnDegraded) {
    }

    /**
     * What happens to in-flight frames when the application stops.
     *
     * @param drainTimeout How long stopping waits, over all channels, for consumers to take what was published
     *                     before closing the channels; frames left are reported as undelivered.
     */
    public record Shutdown(@DefaultValue("10s") Duration drainTimeout) {
    }

    /**
     * How seqlink's meters are published.
     *
     * @param latency How the consumers' publish-to-acknowledgement latency (seqlink.consumer.latency) is distributed.
     */
    public record Metrics(@DefaultValue Latency latency) {
    }

    /**
     * How seqlink.consumer.latency is distributed. Without buckets it is a summary (count, sum, max), which cannot be
     * summed across instances; with buckets Prometheus' histogram_quantile aggregates it.
     *
     * @param histogram       Whether to publish a percentile histogram: buckets from minimum-expected to
     *                        maximum-expected (the _bucket series in Prometheus).
     * @param sloBoundaries   Extra bucket boundaries, e.g. 10us,100us,1ms, published with or without the histogram.
     * @param minimumExpected Smallest latency the histogram's buckets resolve.
     * @param maximumExpected Largest latency the histogram's buckets resolve; above minimum-expected.
     */
    public record Latency(@DefaultValue("false") boolean histogram, List<Duration> sloBoundaries,
            @DefaultValue("1us") Duration minimumExpected, @DefaultValue("1s") Duration maximumExpected) {

        public Latency {
            sloBoundaries = sloBoundaries == null ? List.of() : List.copyOf(sloBoundaries);
        }
    }

    /**
     * Which channels record Micrometer observations: a seqlink.publish observation around each sampled frame's publish,
     * whose trace context the frame carries in its header, and a seqlink.process observation around the
     * @ChannelListener call that continues it.
     *
     * @param channels Observed channels, by the name under seqlink.channels (or seqlink.attach, for the listener side).
     */
    public record Observation(Map<String, ObservedChannel> channels) {

        public Observation {
            channels = channels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(channels));
        }

        /** The settings of channel {@code name}: off when it has none. */
        public ObservedChannel channel(String name) {
            ObservedChannel c = channels.get(name);
            return c == null ? ObservedChannel.OFF : c;
        }
    }

    /**
     * One channel's observation.
     *
     * @param enabled             Whether the channel records observations. Off by default: a channel that is not
     *                            observed costs nothing per frame.
     * @param samplingProbability Fraction of published frames observed and given a trace context, 0 to 1; the rest are
     *                            published as if observation were off. A frame published while a listener handles a
     *                            frame of an observed channel continues that frame's trace whatever this says, so 0
     *                            observes only such frames.
     */
    public record ObservedChannel(@DefaultValue("false") boolean enabled, @DefaultValue("1.0") double samplingProbability) {

        static final ObservedChannel OFF = new ObservedChannel(false, 1.0);
    }
}
