package io.seqlink.spring.endpoint;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelState;
import io.seqlink.backend.LinkAttributes;
import io.seqlink.backend.ProbeMeasurement;
import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.support.BackendReasons;
import io.seqlink.spring.support.ChannelSnapshots;
import io.seqlink.topology.LinkVerdict;
import io.seqlink.topology.TopologyReport;
import io.seqlink.topology.TopologyVerifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code seqlink} actuator endpoint: the devices, the link matrix with the probe's figures, and
 * every channel with the position of each consumer. Reads cached state only.
 *
 * <ul>
 * <li>{@code GET /actuator/seqlink}: everything.</li>
 * <li>{@code GET /actuator/seqlink/{channel}}: one channel; 404 when there is none of that name.</li>
 * <li>{@code POST /actuator/seqlink}: verify the links again (probing those channels use) and return
 * the new topology. Transports of open channels do not change.</li>
 * <li>{@code POST /actuator/seqlink/{channel}} with {@code {"action": "pause"|"resume", "device": 1}}:
 * pause or resume one consumer ({@code device} given) or all consumers of the channel. A paused
 * lossless consumer holds the producer back once the ring is full.</li>
 * </ul>
 *
 * <p>Every operation is safe from any HTTP thread at once: reads take snapshots, and pause/resume go
 * through the consumer's compare-and-set transitions, so they never undo a consumer that died or closed.
 *
 * <p>Default access is read-only: the write operations are not reachable until the application
 * grants {@code management.endpoint.seqlink.access=unrestricted}. Nothing here is secret: device
 * names, link figures, counters, positions; never payloads.
 */
@Endpoint(id = "seqlink", defaultAccess = Access.READ_ONLY)
public class SeqlinkEndpoint {

    private final SeqlinkRuntime runtime;
    private final BiFunction<String, Integer, Optional<String>> listenerIds;

    /**
     * @param runtime     the runtime to describe
     * @param listenerIds the id of the listener bound to a channel's consumer device, if any
     */
    public SeqlinkEndpoint(SeqlinkRuntime runtime, @Nullable BiFunction<String, Integer, Optional<String>> listenerIds) {
        this.runtime = runtime;
        this.listenerIds = listenerIds == null ? (c, d) -> Optional.empty() : listenerIds;
    }

    public SeqlinkEndpoint(SeqlinkRuntime runtime) {
        this(runtime, null);
    }

    @ReadOperation
    public SeqlinkDescriptor seqlink() {
        Map<String, ChannelDescriptor> channels = new LinkedHashMap<>();
        for (PublishChannel ch : runtime.channels()) {
            channels.put(ch.name(), describe(ch));
        }
        Map<String, AttachedChannelDescriptor> attached = new LinkedHashMap<>();
        for (AttachedChannel a : runtime.attachedChannels()) {
            attached.put(a.name(), describe(a)); // the latest of each name
        }
        TopologyReport report = runtime.topology();
        List<DeviceDescriptor> devices = report == null ? List.of()
                : report.devices().stream().map(d -> new DeviceDescriptor(d.ordinal(), d.name(), d.totalMemoryBytes())).toList();
        return new SeqlinkDescriptor(lower(runtime.backendKind()), lower(runtime.requestedBackend()),
                BackendReasons.summary(runtime), BackendReasons.detail(runtime), devices, topology(), channels, attached);
    }

    @ReadOperation
    public @Nullable ChannelDescriptor channel(@Selector String channel) {
        return runtime.channel(channel).map(this::describe).orElse(null);
    }

    /** Verifies the links again, probing those the channels use, and returns the new report. */
    @WriteOperation
    public TopologyDescriptor reverify() {
        runtime.reverify();
        return topology();
    }

    /**
     * Pauses or resumes one consumer of {@code channel} ({@code device} given) or every consumer of it.
     *
     * @param channel the channel's name
     * @param action  {@code pause} or {@code resume} (any case; nothing else, not even with blanks around it)
     * @param device  the consumer device, or {@code null} for every consumer
     */
    @WriteOperation
    public ChannelDescriptor consumers(@Selector String channel, String action, @Nullable Integer device) {
        // Parsed here, not by the endpoint's lenient enum conversion: that read "" as no action (which
        // resumed every consumer), and "pause ", "p-a-u-s-e" or "Pa_Use" as pause.
        ConsumerAction parsed = ConsumerAction.parse(action);
        PublishChannel ch = runtime.channel(channel).orElseThrow(() -> new InvalidEndpointRequestException(
                "There is no seqlink channel '" + channel + "'", "unknown channel"));
        if (device != null && !ch.consumerDevices().contains(device)) {
            throw new InvalidEndpointRequestException("Device " + device + " is not a consumer of channel '" + channel
                    + "' (consumers " + ch.consumerDevices() + ")", "unknown consumer");
        }
        List<Integer> devices = device == null ? ch.consumerDevices() : List.of(device);
        for (int d : devices) {
            ConsumerPort port = ch.consumer(d);
            if (parsed == ConsumerAction.PAUSE) {
                port.pause();
            } else {
                port.resume();
            }
        }
        return describe(ch);
    }

    private TopologyDescriptor topology() {
        TopologyReport report = runtime.topology();
        List<LinkDescriptor> links = new ArrayList<>();
        if (report != null) {
            for (LinkVerdict v : report.links()) {
                links.add(link(v));
            }
        }
        return new TopologyDescriptor(lower(runtime.policy().required()), lower(runtime.policy().onUnsupported()),
                runtime.verifierSettings().enabled(), report == null ? null : String.valueOf(report.verifiedAt()),
                report == null ? 0 : report.elapsedMillis(), report == null ? null : lower(report.worst()), links,
                List.copyOf(runtime.degradedLinks()));
    }

    private static LinkDescriptor link(LinkVerdict v) {
        ProbeDescriptor probe = null;
        ProbeMeasurement m = v.probe();
        if (m != null) {
            List<ScalingDescriptor> scaling = m.scaling().stream()
                    .map(p -> new ScalingDescriptor(p.threads(), p.blocks(), p.opsPerSecond())).toList();
            double ratio = TopologyVerifier.scalingRatio(m);
            probe = new ProbeDescriptor(m.functionalOk(), m.functionalDetail(), m.atomicAddLatencyNs(),
                    m.acquireLoadLatencyNs(), Double.isFinite(ratio) ? ratio : null, scaling, m.elapsedMillis());
        }
        return new LinkDescriptor(v.producer(), v.consumer(), lower(v.verdict()), v.reason(), attributes(v.pull()),
                attributes(v.push()), probe);
    }

    private static AttributesDescriptor attributes(LinkAttributes a) {
        return new AttributesDescriptor(a.accessSupported(), a.nativeAtomics(), a.performanceRank());
    }

    private ChannelDescriptor describe(PublishChannel ch) {
        ChannelSnapshot s = ChannelSnapshots.of(ch);
        ChannelSpec spec = ch.spec();
        if (s == null) {
            return new ChannelDescriptor(ch.name(), lower(ch.state()), null, spec.producer(), ch.consumerDevices(),
                    spec.slots(), spec.slotBytes(), lower(spec.delivery()), lower(spec.readMode()), lower(spec.transport()),
                    spec.maxPublishBatch(), String.valueOf(spec.backpressureTimeout()), String.valueOf(spec.stallTimeout()),
                    lower(spec.consumerFailurePolicy()), 0, 0, 0, 0, 0, 0, List.of(), List.of());
        }
        List<ConsumerDescriptor> consumers = new ArrayList<>();
        for (ConsumerSnapshot c : s.consumers()) {
            consumers.add(consumer(ch.name(), c));
        }
        List<AttachedConsumerDescriptor> attached = s.attached().stream().map(a -> new AttachedConsumerDescriptor(a.seat(),
                a.epoch(), a.pid(), a.startsAfter(), a.acknowledged(), a.lag(), a.heartbeat(), a.heartbeatAgeNanos() / 1_000_000))
                .toList();
        Throwable failure = ch.failure();
        return new ChannelDescriptor(ch.name(), lower(ch.state()), failure == null ? null : failure.getMessage(),
                spec.producer(), ch.consumerDevices(), s.slots(), s.slotBytes(), lower(s.delivery()), lower(s.readMode()), lower(spec.transport()), spec.maxPublishBatch(),
                String.valueOf(spec.backpressureTimeout()), String.valueOf(spec.stallTimeout()),
                lower(spec.consumerFailurePolicy()), s.claimed(), s.published(), s.publishedOnDevice(), s.backpressured(),
                s.backpressureWaitNanos() / 1_000_000,
                s.maxLag(), consumers, attached);
    }

    private ConsumerDescriptor consumer(String channel, ConsumerSnapshot c) {
        Double meanLatencyMicros = c.latencyCount() == 0 ? null : c.latencyTotalNanos() / (double) c.latencyCount() / 1000.0;
        Double maxLatencyMicros = c.latencyCount() == 0 ? null : c.latencyMaxNanos() / 1000.0;
        return new ConsumerDescriptor(c.device(), lower(c.transport()), lower(c.state()), c.stalled(), c.retrying(),
                c.acknowledged(), c.lag(), c.delivered(), c.missed(), c.laps(), c.rounds(), c.retries(), c.deadLettered(),
                c.stalls(), c.hostEmptyPolls(), c.deviceEmptyPolls(), c.armedEarlyWakes(), c.armedReleased(),
                meanLatencyMicros, maxLatencyMicros, listenerIds.apply(channel, c.device()).orElse(null), c.failure());
    }

    private AttachedChannelDescriptor describe(AttachedChannel a) {
        ChannelState state = a.state();
        ConsumerDescriptor consumer = null;
        if (state != ChannelState.CLOSED) { // a closed attachment released its mapping
            try {
                consumer = consumer(a.name(), a.consumer().snapshot());
            } catch (RuntimeException closedMeanwhile) {
                // closed between the state check and the read: the state says so
            }
        }
        Throwable failure = a.failure();
        return new AttachedChannelDescriptor(a.name(), lower(state), failure == null ? null : failure.getMessage(),
                a.consumer().device(), a.seat(), a.epoch(), a.startsAfter(), consumer);
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** What to do with consumers. */
    public enum ConsumerAction {
        /** Stop polling: lossless frames wait, latest frames lap the consumer. */
        PAUSE,
        /** Poll again. */
        RESUME;

        /**
         * The action named {@code value}, ignoring case; a request naming anything else (blank,
         * padded, misspelt) is refused with a 400 and changes nothing.
         */
        public static ConsumerAction parse(@Nullable String value) {
            for (ConsumerAction a : values()) {
                if (a.name().equalsIgnoreCase(value)) {
                    return a;
                }
            }
            throw new InvalidEndpointRequestException("Unknown action '" + value + "': use \"pause\" or \"resume\"",
                    "unknown action");
        }
    }

    /**
     * Everything the endpoint shows.
     *
     * @param backend          the backend running: cuda or emulated
     * @param requestedBackend what {@code seqlink.backend} asked for
     * @param backendReason    why this backend, in a few words
     * @param backendDetail    why this backend, in full (the cause of a fallback included)
     * @param devices          the devices in use
     * @param topology         the link matrix with the verifier's verdicts and probe figures
     * @param channels         every channel this process produces, by name
     * @param attached         every channel this process attached to from another process, by name
     */
    public record SeqlinkDescriptor(String backend, String requestedBackend, String backendReason, String backendDetail,
            List<DeviceDescriptor> devices, TopologyDescriptor topology, Map<String, ChannelDescriptor> channels,
            Map<String, AttachedChannelDescriptor> attached) implements OperationResponseBody {
    }

    /**
     * A channel this process attached to from another process ({@code seqlink.attach.<name>}).
     *
     * @param name        the producer's channel name
     * @param state       open while attached, failed once the producer is gone, closed
     * @param failure     why it failed, or {@code null}
     * @param device      this process's consumer device
     * @param seat        its seat in the producer's region
     * @param epoch       its attachment's epoch
     * @param startsAfter the sequence it started after
     * @param consumer    its consumer's position and counters, or {@code null} once closed
     */
    public record AttachedChannelDescriptor(String name, String state, @Nullable String failure, int device, int seat, long epoch,
            long startsAfter, @Nullable ConsumerDescriptor consumer) {
    }

    /**
     * A consumer process attached to a shared channel, as its producer sees it.
     *
     * @param seat               its seat
     * @param epoch              its attachment's epoch
     * @param pid                its process id
     * @param startsAfter        the sequence it started after
     * @param acknowledged       the highest sequence it acknowledged
     * @param lag                frames published and not acknowledged by it
     * @param heartbeat          its heartbeat counter
     * @param heartbeatAgeMillis how long its heartbeat has not moved, to within a heartbeat period
     */
    public record AttachedConsumerDescriptor(int seat, long epoch, long pid, long startsAfter, long acknowledged, long lag,
            long heartbeat, long heartbeatAgeMillis) {
    }

    /**
     * One device in use.
     *
     * @param ordinal          its ordinal
     * @param name             its name
     * @param totalMemoryBytes its memory
     */
    public record DeviceDescriptor(int ordinal, String name, long totalMemoryBytes) {
    }

    /**
     * The verified topology.
     *
     * @param requiredLinkClass   {@code seqlink.topology.required-link-class}
     * @param onUnsupported       {@code seqlink.topology.on-unsupported}
     * @param verificationEnabled whether links are probed
     * @param verifiedAt          when the last verification finished
     * @param elapsedMillis       how long it took
     * @param worstLink           the worst verdict over all links
     * @param links               one entry per ordered pair of devices in use (the link matrix)
     * @param degradedLinks       links used although worse than required (policy warn), as "p->c"
     */
    public record TopologyDescriptor(String requiredLinkClass, String onUnsupported, boolean verificationEnabled,
            @Nullable String verifiedAt, long elapsedMillis, @Nullable String worstLink, List<LinkDescriptor> links,
            List<String> degradedLinks)
            implements OperationResponseBody {
    }

    /**
     * One producer → consumer link.
     *
     * @param producer the device owning the channel memory
     * @param consumer the device reading it
     * @param verdict  peer-atomic, peer-copy or host-staged
     * @param reason   why, in words
     * @param pull     what the driver says about the consumer reaching the producer's memory
     * @param push     what the driver says about the producer reaching the consumer's memory
     * @param probe    the probe's figures, or {@code null} when the link was not probed
     */
    public record LinkDescriptor(int producer, int consumer, String verdict, String reason, AttributesDescriptor pull,
            AttributesDescriptor push, @Nullable ProbeDescriptor probe) {
    }

    /**
     * Driver attributes of one direction of a pair.
     *
     * @param peerAccess      whether the accessor can address the owner's memory
     * @param nativeAtomics   whether its atomics there are native
     * @param performanceRank the driver's performance rank of the link
     */
    public record AttributesDescriptor(boolean peerAccess, boolean nativeAtomics, int performanceRank) {
    }

    /**
     * What the probe measured on a link.
     *
     * @param functionalOk         whether the pattern and the counted atomic adds came through intact
     * @param functionalDetail     what the functional check saw
     * @param atomicAddLatencyNs   mean latency of one remote release atomic add
     * @param acquireLoadLatencyNs mean latency of one remote acquire load
     * @param scalingRatio         throughput at the most threads over throughput at one thread
     * @param scaling              throughput per thread count
     * @param elapsedMillis        how long the probe took
     */
    public record ProbeDescriptor(boolean functionalOk, String functionalDetail, double atomicAddLatencyNs,
            double acquireLoadLatencyNs, @Nullable Double scalingRatio, List<ScalingDescriptor> scaling, long elapsedMillis) {
    }

    /**
     * Remote atomic throughput at one concurrency.
     *
     * @param threads      threads per block
     * @param blocks       blocks
     * @param opsPerSecond remote atomic adds per second
     */
    public record ScalingDescriptor(int threads, int blocks, double opsPerSecond) {
    }

    /**
     * One channel.
     *
     * @param name                  its name
     * @param state                 open, draining, closed or failed
     * @param failure               why it failed, or {@code null}
     * @param producer              the producer device
     * @param consumerDevices       the consumer devices
     * @param slots                 ring slots
     * @param slotBytes             payload bytes per slot
     * @param delivery              lossless or latest
     * @param readMode              copy or direct
     * @param transport             the configured transport (auto, or forced)
     * @param maxPublishBatch       most frames between two publishes
     * @param backpressureTimeout   how long a blocking claim waits
     * @param stallTimeout          after how long without acknowledgement a consumer is stalled
     * @param consumerFailurePolicy what a consumer's device failure does
     * @param claimed               frames claimed by the producer
     * @param published             frames enqueued for publishing
     * @param publishedOnDevice     frames the device published (the producer position)
     * @param backpressured         claim calls that found no free slot, once per call
     * @param backpressureWaitMillis time blocking claims spent waiting for a free slot
     * @param maxLag                the largest lag of a live consumer
     * @param consumers             each consumer's position and counters
     * @param attachedConsumers     the consumer processes attached to a shared channel now, by seat
     */
    public record ChannelDescriptor(String name, String state, @Nullable String failure, int producer,
            List<Integer> consumerDevices, int slots, long slotBytes, String delivery, String readMode, String transport, int maxPublishBatch,
            String backpressureTimeout, String stallTimeout, String consumerFailurePolicy, long claimed, long published,
            long publishedOnDevice, long backpressured, long backpressureWaitMillis, long maxLag, List<ConsumerDescriptor> consumers,
            List<AttachedConsumerDescriptor> attachedConsumers) implements OperationResponseBody {
    }

    /**
     * One consumer's position and counters.
     *
     * @param device            the consumer device
     * @param transport         the transport in use
     * @param state             active, paused, dead or closed
     * @param stalled           whether frames wait with no acknowledgement within the stall timeout
     * @param retrying          whether its listener is retrying a failed frame
     * @param acknowledged      the highest sequence acknowledged (its position)
     * @param lag               frames published and not yet acknowledged
     * @param delivered         frames handled by the listener
     * @param missed            frames never delivered (lapped under latest delivery)
     * @param laps              frames the consume step found overwritten
     * @param rounds            consume rounds
     * @param retries           listener deliveries retried
     * @param deadLettered      frames handed to the error handler
     * @param stalls            stall episodes
     * @param hostEmptyPolls    launcher looks that found nothing new
     * @param deviceEmptyPolls  ordinary consume steps that found nothing
     * @param armedEarlyWakes   armed rounds that landed empty though the host did not release them (early wakes)
     * @param armedReleased     armed rounds the host released before their frame came (a cancel, a module load)
     * @param meanLatencyMicros mean publish-to-ack latency, or {@code null} before the first frame
     * @param maxLatencyMicros  largest publish-to-ack latency, or {@code null}
     * @param listener          the id of the listener bound to it, or {@code null}
     * @param failure           why it is dead, or {@code null}
     */
    public record ConsumerDescriptor(int device, String transport, String state, boolean stalled, boolean retrying,
            long acknowledged,
            long lag, long delivered, long missed, long laps, long rounds, long retries, long deadLettered, long stalls,
            long hostEmptyPolls, long deviceEmptyPolls, long armedEarlyWakes, long armedReleased,
            @Nullable Double meanLatencyMicros, @Nullable Double maxLatencyMicros,
            @Nullable String listener, @Nullable String failure) {
    }
}
