package io.seqlink.spring.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.AttachedConsumer;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelState;
import io.seqlink.backend.ProbeMeasurement;
import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.support.ChannelSnapshots;
import io.seqlink.topology.LinkVerdict;
import io.seqlink.topology.TopologyReport;
import io.seqlink.topology.TopologyVerifier;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * seqlink's meters, read from channel snapshots and the topology report (cached state; no driver
 * call). Names as Micrometer writes them; Prometheus turns dots into underscores and adds
 * {@code _total} to counters and {@code _seconds} to timers.
 *
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 * <tr><td>seqlink.channel.published</td><td>counter</td><td>channel, device</td><td>frames the producer device published</td></tr>
 * <tr><td>seqlink.channel.claimed</td><td>counter</td><td>channel, device</td><td>slots claimed by the producer</td></tr>
 * <tr><td>seqlink.channel.backpressure.waits</td><td>counter</td><td>channel, device</td><td>claim calls that found no free slot, once per call</td></tr>
 * <tr><td>seqlink.channel.backpressure.wait</td><td>counter (seconds)</td><td>channel, device</td><td>time blocking claims spent waiting for a slot, over all producer threads</td></tr>
 * <tr><td>seqlink.channel.failed</td><td>gauge</td><td>channel, device</td><td>1 when a device error closed the channel</td></tr>
 * <tr><td>seqlink.consumer.consumed</td><td>counter</td><td>channel, consumer, device</td><td>frames the listener handled</td></tr>
 * <tr><td>seqlink.consumer.lag</td><td>gauge</td><td>channel, consumer, device</td><td>frames published and not yet acknowledged</td></tr>
 * <tr><td>seqlink.consumer.position</td><td>gauge</td><td>channel, consumer, device</td><td>highest acknowledged sequence</td></tr>
 * <tr><td>seqlink.consumer.latency</td><td>timer</td><td>channel, consumer, device</td><td>publish to acknowledgement, per frame (buckets as its {@link LatencyDistribution} says)</td></tr>
 * <tr><td>seqlink.consumer.missed</td><td>counter</td><td>channel, consumer, device</td><td>frames never delivered (lapped, latest delivery)</td></tr>
 * <tr><td>seqlink.consumer.laps</td><td>counter</td><td>channel, consumer, device</td><td>frames the consume step found overwritten</td></tr>
 * <tr><td>seqlink.consumer.empty.polls</td><td>counter</td><td>channel, consumer, device, side=host|device</td><td>looks that found nothing</td></tr>
 * <tr><td>seqlink.consumer.retries</td><td>counter</td><td>channel, consumer, device</td><td>listener deliveries retried</td></tr>
 * <tr><td>seqlink.consumer.dead.lettered</td><td>counter</td><td>channel, consumer, device</td><td>frames handed to the error handler</td></tr>
 * <tr><td>seqlink.consumer.stalls</td><td>counter</td><td>channel, consumer, device</td><td>stall episodes</td></tr>
 * <tr><td>seqlink.consumer.stalled</td><td>gauge</td><td>channel, consumer, device</td><td>1 while stalled</td></tr>
 * <tr><td>seqlink.consumer.retrying</td><td>gauge</td><td>channel, consumer, device</td><td>1 while its listener retries a failed frame</td></tr>
 * <tr><td>seqlink.consumer.dead</td><td>gauge</td><td>channel, consumer, device</td><td>1 once its device failed (lost, sticky error)</td></tr>
 * <tr><td>seqlink.channel.attached</td><td>gauge</td><td>channel, device</td><td>shared channels: consumer processes attached now</td></tr>
 * <tr><td>seqlink.channel.attached.lag</td><td>gauge</td><td>channel, device, seat</td><td>shared channels, one per seat (at most
 *     {@code share.seats}, 64): frames published and not acknowledged by the process in the seat; NaN while the seat is free</td></tr>
 * <tr><td>seqlink.attached.up</td><td>gauge</td><td>channel, device</td><td>channels attached from another process: 1 while
 *     attached, 0 once FAILED (the producer is gone) or closed</td></tr>
 * <tr><td>seqlink.attached.failed</td><td>gauge</td><td>channel, device</td><td>1 once the attached channel FAILED</td></tr>
 * <tr><td>seqlink.attached.position</td><td>gauge</td><td>channel, device</td><td>highest sequence this process acknowledged</td></tr>
 * <tr><td>seqlink.attached.consumed</td><td>counter</td><td>channel, device</td><td>frames its listener handled</td></tr>
 * <tr><td>seqlink.attached.latency</td><td>function timer</td><td>channel, device</td><td>publish (in the producer's
 *     process) to acknowledgement here: count and total of the frames timed</td></tr>
 * <tr><td>seqlink.link.atomic.latency</td><td>gauge (seconds)</td><td>producer, consumer, verdict</td><td>probe: remote release atomic add</td></tr>
 * <tr><td>seqlink.link.acquire.latency</td><td>gauge (seconds)</td><td>producer, consumer, verdict</td><td>probe: remote acquire load</td></tr>
 * <tr><td>seqlink.link.scaling.ratio</td><td>gauge</td><td>producer, consumer, verdict</td><td>probe: throughput at most threads over one thread</td></tr>
 * <tr><td>seqlink.link.below.required</td><td>gauge</td><td>producer, consumer, required</td><td>1 while the link's verdict is below the required link class</td></tr>
 * </table>
 *
 * <p>{@code consumer} and {@code device} of a consumer meter are both its device ordinal ({@code device}
 * lets one query sum over everything a device does); on channel meters {@code device} is the producer.
 * Link gauges exist for the links probed at startup and are NaN while a re-verification leaves a link
 * unprobed; {@code seqlink.link.below.required} exists for every link of the report, probed or not. The {@code verdict} tag holds the startup verdict. On attached channels {@code device} is this
 * process's consumer device.
 */
public class SeqlinkMetrics implements MeterBinder {

    private final SeqlinkRuntime runtime;
    private final LatencyDistribution latency;
    private final Map<ConsumerPort, List<Timer>> timers = new ConcurrentHashMap<>();

    /** seqlink's meters of {@code runtime}, the latency timer a summary without buckets. */
    public SeqlinkMetrics(SeqlinkRuntime runtime) {
        this(runtime, LatencyDistribution.SUMMARY);
    }

    /** seqlink's meters of {@code runtime}, the latency timer distributed as {@code latency} says. */
    public SeqlinkMetrics(SeqlinkRuntime runtime, LatencyDistribution latency) {
        this.runtime = runtime;
        this.latency = latency;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (PublishChannel ch : runtime.channels()) {
            bindChannel(registry, ch);
        }
        for (AttachedChannel a : runtime.attachedChannels()) {
            bindAttached(registry, a);
        }
        TopologyReport report = runtime.topology();
        if (report != null) {
            for (LinkVerdict v : report.links()) {
                bindBelowRequired(registry, v);
                if (v.probed()) {
                    bindLink(registry, v);
                }
            }
        }
    }

    private void bindChannel(MeterRegistry registry, PublishChannel ch) {
        Tags tags = Tags.of("channel", ch.name(), "device", String.valueOf(ch.spec().producer()));
        FunctionCounter.builder("seqlink.channel.published", ch, c -> channel(c, ChannelSnapshot::publishedOnDevice)).tags(tags)
                .description("Frames the producer device published").register(registry);
        FunctionCounter.builder("seqlink.channel.claimed", ch, c -> channel(c, ChannelSnapshot::claimed)).tags(tags)
                .description("Slots claimed by the producer").register(registry);
        FunctionCounter.builder("seqlink.channel.backpressure.waits", ch, c -> channel(c, ChannelSnapshot::backpressured)).tags(tags)
                .description("Claim calls that found no free slot, once per call (lossless backpressure)").register(registry);
        FunctionCounter.builder("seqlink.channel.backpressure.wait", ch, c -> channel(c, s -> s.backpressureWaitNanos() / 1e9))
                .tags(tags).baseUnit("seconds").description("Time blocking claims spent waiting for a free slot")
                .register(registry);
        Gauge.builder("seqlink.channel.failed", ch, c -> c.failure() != null ? 1 : 0).tags(tags)
                .description("1 when a device error closed the channel").register(registry);
        for (int device : ch.consumerDevices()) {
            bindConsumer(registry, ch, device);
        }
        ChannelShare share = ch.spec().share();
        if (share != null) {
            Gauge.builder("seqlink.channel.attached", ch, c -> channel(c, x -> x.attached().size())).tags(tags)
                    .description("Consumer processes attached to the shared channel now").register(registry);
            for (int seat = 0; seat < share.seats(); seat++) {
                int n = seat;
                Gauge.builder("seqlink.channel.attached.lag", ch, c -> channel(c, x -> seatLag(x, n)))
                        .tags(tags.and("seat", String.valueOf(seat)))
                        .description("Frames published and not acknowledged by the consumer process in this seat (NaN while free)")
                        .register(registry);
            }
        }
    }

    private static double seatLag(ChannelSnapshot s, int seat) {
        for (AttachedConsumer a : s.attached()) {
            if (a.seat() == seat) {
                return a.lag();
            }
        }
        return Double.NaN;
    }

    /**
     * The attached channel's meters read its latest attachment of the name at each scrape, so an attachment made again
     * after a failure ({@code seqlink.attach.<name>.reattach-interval}) shows in the same series.
     */
    private void bindAttached(MeterRegistry registry, AttachedChannel first) {
        String name = first.name();
        Tags tags = Tags.of("channel", name, "device", String.valueOf(first.consumer().device()));
        Gauge.builder("seqlink.attached.up", runtime, r -> r.attachedChannel(name).orElse(first).state() == ChannelState.OPEN ? 1 : 0).tags(tags)
                .description("1 while the channel is attached to its producer's process, 0 once it failed or closed")
                .register(registry);
        Gauge.builder("seqlink.attached.failed", runtime, r -> r.attachedChannel(name).orElse(first).state() == ChannelState.FAILED ? 1 : 0)
                .tags(tags)
                .description("1 once the attached channel failed: its producer died, stood still, closed it or dropped this consumer")
                .register(registry);
        Gauge.builder("seqlink.attached.position", runtime, r -> attached(r.attachedChannel(name).orElse(first), ConsumerSnapshot::acknowledged))
                .tags(tags).description("Highest sequence this process acknowledged").register(registry);
        FunctionCounter.builder("seqlink.attached.consumed", runtime, r -> attached(r.attachedChannel(name).orElse(first), ConsumerSnapshot::delivered))
                .tags(tags).description("Frames the attached channel's listener handled").register(registry);
        FunctionTimer.builder("seqlink.attached.latency", runtime,
                        r -> (long) attached(r.attachedChannel(name).orElse(first), ConsumerSnapshot::latencyCount), // NaN (closed): 0
                        r -> attached(r.attachedChannel(name).orElse(first), ConsumerSnapshot::latencyTotalNanos), TimeUnit.NANOSECONDS)
                .tags(tags).description("Publish (in the producer's process, the region's publish times) to acknowledgement here")
                .register(registry);
    }


    /** A value of the attached channel's consumer, NaN once it is closed (its mapping released). */
    private static double attached(AttachedChannel a, ToDoubleFunction<ConsumerSnapshot> f) {
        if (a.state() == ChannelState.CLOSED) {
            return Double.NaN;
        }
        try {
            return f.applyAsDouble(a.consumer().snapshot());
        } catch (RuntimeException closedMeanwhile) {
            return Double.NaN;
        }
    }

    private void bindConsumer(MeterRegistry registry, PublishChannel ch, int device) {
        String d = String.valueOf(device);
        Tags tags = Tags.of("channel", ch.name(), "consumer", d, "device", d);
        ConsumerPort port = ch.consumer(device);
        counter(registry, "seqlink.consumer.consumed", ch, device, tags, ConsumerSnapshot::delivered, "Frames the listener handled");
        gauge(registry, "seqlink.consumer.lag", ch, device, tags, ConsumerSnapshot::lag, "Frames published and not yet acknowledged");
        gauge(registry, "seqlink.consumer.position", ch, device, tags, ConsumerSnapshot::acknowledged,
                "Highest acknowledged sequence");
        counter(registry, "seqlink.consumer.missed", ch, device, tags, ConsumerSnapshot::missed,
                "Frames never delivered: lapped under latest delivery");
        counter(registry, "seqlink.consumer.laps", ch, device, tags, ConsumerSnapshot::laps, "Frames the consume step found overwritten");
        counter(registry, "seqlink.consumer.empty.polls", ch, device, tags.and("side", "host"), ConsumerSnapshot::hostEmptyPolls,
                "Launcher looks at the host mirror that found nothing new");
        counter(registry, "seqlink.consumer.empty.polls", ch, device, tags.and("side", "device"), ConsumerSnapshot::deviceEmptyPolls,
                "Ordinary consume steps that found no frame");
        counter(registry, "seqlink.consumer.armed.empty", ch, device, tags.and("reason", "early-wake"), ConsumerSnapshot::armedEarlyWakes,
                "Armed rounds that landed empty though the host did not release them");
        counter(registry, "seqlink.consumer.armed.empty", ch, device, tags.and("reason", "released"), ConsumerSnapshot::armedReleased,
                "Armed rounds the host released before their frame came");
        counter(registry, "seqlink.consumer.retries", ch, device, tags, ConsumerSnapshot::retries, "Listener deliveries retried");
        counter(registry, "seqlink.consumer.dead.lettered", ch, device, tags, ConsumerSnapshot::deadLettered,
                "Frames handed to the error handler after every retry failed");
        counter(registry, "seqlink.consumer.stalls", ch, device, tags, ConsumerSnapshot::stalls, "Stall episodes");
        gauge(registry, "seqlink.consumer.stalled", ch, device, tags, s -> s.stalled() ? 1 : 0, "1 while the consumer is stalled");
        gauge(registry, "seqlink.consumer.retrying", ch, device, tags, s -> s.retrying() ? 1 : 0,
                "1 while the consumer's listener retries a failed frame (or holds at one its error handler refused)");
        gauge(registry, "seqlink.consumer.dead", ch, device, tags, s -> s.state() == ConsumerState.DEAD ? 1 : 0,
                "1 once the consumer's device failed (lost, or a sticky error); its consumer-failure-policy says what follows");
        Timer timer = latency.applyTo(Timer.builder("seqlink.consumer.latency").tags(tags)
                .description("Publish to acknowledgement of each frame")).register(registry);
        List<Timer> list = timers.computeIfAbsent(port, p -> {
            CopyOnWriteArrayList<Timer> ts = new CopyOnWriteArrayList<>();
            p.latencyRecorder(nanos -> {
                for (Timer t : ts) {
                    t.record(nanos, TimeUnit.NANOSECONDS);
                }
            });
            return ts;
        });
        if (!list.contains(timer)) {
            list.add(timer);
        }
    }

    private void bindLink(MeterRegistry registry, LinkVerdict startup) {
        int p = startup.producer();
        int c = startup.consumer();
        Tags tags = Tags.of("producer", String.valueOf(p), "consumer", String.valueOf(c), "verdict",
                tagValue(startup.verdict()));
        Gauge.builder("seqlink.link.atomic.latency", runtime, rt -> probe(rt, p, c, m -> m.atomicAddLatencyNs() / 1e9))
                .tags(tags).baseUnit("seconds").description("Probe: mean latency of one remote release atomic add")
                .register(registry);
        Gauge.builder("seqlink.link.acquire.latency", runtime, rt -> probe(rt, p, c, m -> m.acquireLoadLatencyNs() / 1e9))
                .tags(tags).baseUnit("seconds").description("Probe: mean latency of one remote acquire load")
                .register(registry);
        Gauge.builder("seqlink.link.scaling.ratio", runtime, rt -> probe(rt, p, c, TopologyVerifier::scalingRatio))
                .tags(tags).description("Probe: remote atomic throughput at the most threads over one thread")
                .register(registry);
    }

    private void bindBelowRequired(MeterRegistry registry, LinkVerdict startup) {
        int p = startup.producer();
        int c = startup.consumer();
        Tags tags = Tags.of("producer", String.valueOf(p), "consumer", String.valueOf(c), "required",
                tagValue(runtime.policy().required()));
        Gauge.builder("seqlink.link.below.required", runtime, rt -> belowRequired(rt, p, c)).tags(tags)
                .description("1 while the link's verdict is below seqlink.topology.required-link-class").register(registry);
    }

    private static double belowRequired(SeqlinkRuntime rt, int producer, int consumer) {
        TopologyReport report = rt.topology();
        if (report == null) {
            return Double.NaN;
        }
        return report.link(producer, consumer).map(v -> v.verdict().satisfies(rt.policy().required()) ? 0.0 : 1.0)
                .orElse(Double.NaN);
    }

    private static String tagValue(Enum<?> e) {
        return e.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    private static double probe(SeqlinkRuntime rt, int producer, int consumer, ToDoubleFunction<ProbeMeasurement> f) {
        TopologyReport report = rt.topology();
        if (report == null) {
            return Double.NaN;
        }
        return report.link(producer, consumer).map(LinkVerdict::probe).map(f::applyAsDouble).orElse(Double.NaN);
    }

    private static double channel(PublishChannel ch, ToDoubleFunction<ChannelSnapshot> f) {
        ChannelSnapshot s = ChannelSnapshots.of(ch);
        return s == null ? Double.NaN : f.applyAsDouble(s);
    }

    private static double consumer(PublishChannel ch, int device, ToDoubleFunction<ConsumerSnapshot> f) {
        ConsumerSnapshot s = ChannelSnapshots.consumer(ch, device);
        return s == null ? Double.NaN : f.applyAsDouble(s);
    }

    private static void counter(MeterRegistry registry, String name, PublishChannel ch, int device, Tags tags,
            ToDoubleFunction<ConsumerSnapshot> f, String description) {
        FunctionCounter.builder(name, ch, c -> consumer(c, device, f)).tags(tags).description(description)
                .register(registry);
    }

    private static void gauge(MeterRegistry registry, String name, PublishChannel ch, int device, Tags tags,
            ToDoubleFunction<ConsumerSnapshot> f, String description) {
        Gauge.builder(name, ch, c -> consumer(c, device, f)).tags(tags).description(description).register(registry);
    }
}
