package io.seqlink.ucx.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.seqlink.ucx.BridgeSnapshot;
import io.seqlink.ucx.LinkState;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Meters of the UCX bridges, tagged {@code channel} and {@code role}: {@code seqlink.ucx.connected}
 * (1 or 0), {@code seqlink.ucx.lag} (frames taken, not yet acknowledged across the link),
 * {@code seqlink.ucx.in.flight}, {@code seqlink.ucx.frames} (acknowledged), {@code seqlink.ucx.bytes},
 * {@code seqlink.ucx.reconnects}, {@code seqlink.ucx.resent}, and what the end refused:
 * {@code seqlink.ucx.refused.handshakes}, {@code seqlink.ucx.auth.failures}, {@code seqlink.ucx.protocol.errors},
 * {@code seqlink.ucx.refused.senders}. Each reads the bridge's snapshot when
 * scraped; before the bridge opens, gauges read NaN and counters 0.
 */
public class UcxBridgeMetrics implements MeterBinder {

    /** One end to meter: its channel, role, and its snapshot ({@code null} while not open). */
    public record End(String channel, BridgeSnapshot.Role role, Supplier<@Nullable BridgeSnapshot> snapshot) {
    }

    private final List<End> ends;

    public UcxBridgeMetrics(List<End> ends) {
        this.ends = List.copyOf(ends);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (End e : ends) {
            Tags tags = Tags.of("channel", e.channel(), "role", e.role().name().toLowerCase(Locale.ROOT));
            gauge(registry, "seqlink.ucx.connected", "1 while the link is connected", tags, e,
                    s -> s.state() == LinkState.CONNECTED ? 1 : 0);
            gauge(registry, "seqlink.ucx.lag", "frames taken that the receiving consumers have not all acknowledged", tags, e,
                    BridgeSnapshot::lag);
            gauge(registry, "seqlink.ucx.in.flight", "frames announced but not yet published at the receiver", tags, e,
                    BridgeSnapshot::inFlight);
            counter(registry, "seqlink.ucx.frames", "frames acknowledged across the link", tags, e, BridgeSnapshot::consumed);
            counter(registry, "seqlink.ucx.bytes", "payload bytes carried", tags, e, BridgeSnapshot::bytes);
            counter(registry, "seqlink.ucx.reconnects", "links lost and opened again", tags, e, BridgeSnapshot::reconnects);
            counter(registry, "seqlink.ucx.resent", "frames carried again after a reconnect", tags, e, BridgeSnapshot::resent);
            counter(registry, "seqlink.ucx.refused.handshakes", "handshakes refused (address not allowed, another channel, "
                    + "a slot too large, too many waiting)", tags, e, s -> s.refusals().handshakes());
            counter(registry, "seqlink.ucx.auth.failures", "peers that did not prove the shared secret", tags, e,
                    s -> s.refusals().authFailures());
            counter(registry, "seqlink.ucx.protocol.errors", "malformed messages, or messages from an endpoint they do not "
                    + "belong to", tags, e, s -> s.refusals().protocolErrors());
            counter(registry, "seqlink.ucx.refused.senders", "second senders of the channel refused while its link was live",
                    tags, e, s -> s.refusals().senders());
        }
    }

    private static void gauge(MeterRegistry registry, String name, String help, Tags tags, End e,
            ToDoubleFunction<BridgeSnapshot> value) {
        Gauge.builder(name, e, x -> read(x, value, Double.NaN)).description(help).tags(tags).register(registry);
    }

    private static void counter(MeterRegistry registry, String name, String help, Tags tags, End e,
            ToDoubleFunction<BridgeSnapshot> value) {
        FunctionCounter.builder(name, e, x -> read(x, value, 0)).description(help).tags(tags).register(registry);
    }

    private static double read(End e, ToDoubleFunction<BridgeSnapshot> value, double none) {
        BridgeSnapshot s = e.snapshot().get();
        return s == null ? none : value.applyAsDouble(s);
    }
}
