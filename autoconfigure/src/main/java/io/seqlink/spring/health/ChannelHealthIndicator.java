package io.seqlink.spring.health;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachedConsumer;
import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.support.ChannelSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * One channel's health from its snapshot (host mirrors and counters: no driver call): state, and per
 * consumer the transport, position, lag, and whether it is stalled, retrying a failed frame, paused
 * or dead; for a shared channel, the consumer processes attached now, per seat their pid, epoch, position, lag and
 * heartbeat age (a lagging one makes the channel DEGRADED, as a lagging consumer of this process does). See {@link SeqlinkHealthStatus} for what each status means.
 */
public class ChannelHealthIndicator implements HealthIndicator {

    private final SeqlinkRuntime runtime;
    private final PublishChannel channel;
    private final SeqlinkHealthSettings settings;

    public ChannelHealthIndicator(SeqlinkRuntime runtime, PublishChannel channel, SeqlinkHealthSettings settings) {
        this.runtime = runtime;
        this.channel = channel;
        this.settings = settings;
    }

    @Override
    public Health health() {
        ChannelSnapshot s = ChannelSnapshots.of(channel);
        if (s == null) {
            return Health.outOfService().withDetail("state", channel.state()).build();
        }
        long lagLimit = Math.max(1, (long) Math.ceil(settings.lagThreshold() * s.slots()));
        List<Integer> stalled = new ArrayList<>();
        List<Integer> lagging = new ArrayList<>();
        List<Integer> dead = new ArrayList<>();
        List<Integer> paused = new ArrayList<>();
        List<Integer> retrying = new ArrayList<>();
        Map<String, Object> consumers = new LinkedHashMap<>();
        for (ConsumerSnapshot c : s.consumers()) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("transport", c.transport());
            d.put("state", c.state());
            d.put("acknowledged", c.acknowledged());
            d.put("lag", c.lag());
            d.put("stalled", c.stalled());
            d.put("retrying", c.retrying());
            if (c.failure() != null) {
                d.put("failure", c.failure());
            }
            consumers.put(String.valueOf(c.device()), d);
            if (c.state() == ConsumerState.DEAD) {
                dead.add(c.device());
                continue;
            }
            if (c.state() == ConsumerState.PAUSED) {
                paused.add(c.device());
            }
            if (c.stalled()) {
                stalled.add(c.device());
            }
            if (c.retrying()) {
                retrying.add(c.device());
            }
            if (c.lag() >= lagLimit) {
                lagging.add(c.device());
            }
        }
        List<Integer> laggingSeats = new ArrayList<>();
        Map<String, Object> attached = new LinkedHashMap<>();
        for (AttachedConsumer a : s.attached()) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("pid", a.pid());
            d.put("epoch", a.epoch());
            d.put("acknowledged", a.acknowledged());
            d.put("lag", a.lag());
            d.put("heartbeatAgeMillis", a.heartbeatAgeNanos() / 1_000_000);
            attached.put(String.valueOf(a.seat()), d);
            if (a.lag() >= lagLimit) {
                laggingSeats.add(a.seat());
            }
        }
        ChannelState state = channel.state(); // live: a closed channel keeps its last snapshot
        Status status = status(state, stalled, lagging, dead, retrying);
        if (status == Status.UP && !laggingSeats.isEmpty()) {
            status = settings.failOnDegraded() ? Status.DOWN : SeqlinkHealthStatus.DEGRADED;
        }
        Health.Builder b = Health.status(status)
                .withDetail("backend", runtime.backendKind().name().toLowerCase(Locale.ROOT))
                .withDetail("state", state)
                .withDetail("producer", s.producer())
                .withDetail("delivery", s.delivery())
                .withDetail("readMode", s.readMode())
                .withDetail("slots", s.slots())
                .withDetail("published", s.publishedOnDevice())
                .withDetail("backpressured", s.backpressured())
                .withDetail("backpressureWaitMillis", s.backpressureWaitNanos() / 1_000_000)
                .withDetail("consumers", consumers);
        if (channel.spec().share() != null) {
            b.withDetail("attachedProcesses", attached.size()).withDetail("attachedConsumers", attached);
            if (!laggingSeats.isEmpty()) {
                b.withDetail("laggingAttachedSeats", laggingSeats).withDetail("lagThreshold", lagLimit);
            }
        }
        Throwable failure = channel.failure();
        if (failure != null) {
            b.withDetail("failure", String.valueOf(failure.getMessage()));
        }
        if (!stalled.isEmpty()) {
            b.withDetail("stalledConsumers", stalled);
        }
        if (!lagging.isEmpty()) {
            b.withDetail("laggingConsumers", lagging).withDetail("lagThreshold", lagLimit);
        }
        if (!dead.isEmpty()) {
            b.withDetail("deadConsumers", dead);
        }
        if (!paused.isEmpty()) {
            b.withDetail("pausedConsumers", paused);
        }
        if (!retrying.isEmpty()) {
            b.withDetail("retryingConsumers", retrying);
        }
        return b.build();
    }

    private Status status(ChannelState state, List<Integer> stalled, List<Integer> lagging, List<Integer> dead,
            List<Integer> retrying) {
        switch (state) {
            case FAILED:
                return Status.DOWN;
            case DRAINING:
            case CLOSED:
                return Status.OUT_OF_SERVICE;
            default:
                break;
        }
        if (!dead.isEmpty() && channel.spec().consumerFailurePolicy() != ConsumerFailurePolicy.DROP_CONSUMER) {
            return Status.DOWN; // a dead consumer the producer still waits for
        }
        if (!dead.isEmpty() || !stalled.isEmpty() || !lagging.isEmpty() || !retrying.isEmpty()) {
            return settings.failOnDegraded() ? Status.DOWN : SeqlinkHealthStatus.DEGRADED;
        }
        return Status.UP;
    }
}
