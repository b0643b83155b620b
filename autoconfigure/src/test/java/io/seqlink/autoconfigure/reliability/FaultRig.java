package io.seqlink.autoconfigure.reliability;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedFaults;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.spring.health.SeqlinkHealthContributor;
import io.seqlink.spring.health.SeqlinkHealthSettings;
import io.seqlink.spring.health.SeqlinkHealthStatus;
import io.seqlink.spring.metrics.SeqlinkMetrics;
import io.seqlink.topology.VerifierSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.boot.health.actuate.endpoint.SimpleStatusAggregator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * A runtime on the emulated backend with fault injection, the starter's health composite and meters
 * bound to a registry: what a service shows an operator, without a Spring context (fast). The
 * watchdog looks every 20 ms, loops park when idle (the machine running these tests is shared).
 */
final class FaultRig implements AutoCloseable {

    static final Duration WATCHDOG = Duration.ofMillis(20);

    final SeqlinkRuntime rt;
    final EmulatedFaults faults;
    final SeqlinkHealthContributor health;
    final MeterRegistry meters = new SimpleMeterRegistry();
    private final List<PublishChannel> channels = new ArrayList<>();

    private FaultRig(int devices, SeqlinkHealthSettings settings, List<ChannelSpec> specs) {
        rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(devices))
                .verifier(VerifierSettings.defaults().withEnabled(false))
                .launcher(new LauncherSettings(IdleStrategyKind.PARK, 32, WATCHDOG)).drainTimeout(Duration.ZERO).open();
        faults = ((EmulatedBackend) rt.backend()).faults();
        for (ChannelSpec spec : specs) {
            channels.add(rt.openChannel(spec));
        }
        health = new SeqlinkHealthContributor(rt, settings);
        new SeqlinkMetrics(rt).bindTo(meters);
    }

    static FaultRig open(int devices, SeqlinkHealthSettings settings, ChannelSpec... specs) {
        return new FaultRig(devices, settings, List.of(specs));
    }

    PublishChannel channel(String name) {
        return rt.channel(name).orElseThrow();
    }

    /** Subscribes a recorder to the consumer on {@code device} of {@code channel}. */
    Recorder record(String channel, int device) {
        Recorder r = new Recorder();
        channel(channel).consumer(device).subscribe(r);
        return r;
    }

    /** Publishes the values {@code from..to} as 8-byte frames, waiting for free slots. */
    void publish(String channel, long from, long to) {
        PublishChannel ch = channel(channel);
        for (long v = from; v <= to; v++) {
            TestChannels.publishLong(ch, v);
        }
    }

    Health health(String child) {
        return ((HealthIndicator) health.getContributor(child)).health();
    }

    /** The {@code seqlink} composite's status, aggregated the way the starter orders statuses. */
    Status aggregate() {
        java.util.Set<Status> statuses = new java.util.LinkedHashSet<>();
        health.stream().forEach(e -> statuses.add(((HealthIndicator) e.contributor()).health().getStatus()));
        return new SimpleStatusAggregator(SeqlinkHealthStatus.DEFAULT_STATUS_ORDER.split(",")).getAggregateStatus(statuses);
    }

    /** The value of the one meter named {@code name} with the tags (gauge or function counter). */
    double meter(String name, String... tags) {
        Search s = meters.find(name).tags(tags);
        if (s.gauge() != null) {
            return s.gauge().value();
        }
        if (s.functionCounter() != null) {
            return s.functionCounter().count();
        }
        throw new AssertionError("no meter " + name + " " + List.of(tags) + " in " + describeMeters());
    }

    private String describeMeters() {
        Map<String, Integer> names = new LinkedHashMap<>();
        meters.getMeters().forEach(m -> names.merge(m.getId().getName(), 1, Integer::sum));
        return names.toString();
    }

    /** Polls {@code supplier} until {@code done}, at most {@code timeout}; the last value (the caller asserts on it). */
    static <T> T await(Duration timeout, Supplier<T> supplier, Predicate<T> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T value = supplier.get();
        while (!done.test(value) && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(2_000_000);
            value = supplier.get();
        }
        return value;
    }

    static List<Long> range(long from, long to) {
        List<Long> l = new ArrayList<>();
        for (long v = from; v <= to; v++) {
            l.add(v);
        }
        return l;
    }

    @Override
    public void close() {
        rt.close();
    }

    /** Keeps the value of every frame delivered to it, in arrival order. */
    static class Recorder implements FrameHandler {
        final List<Long> values = new CopyOnWriteArrayList<>();

        @Override
        public void onFrame(io.seqlink.channel.Frame frame) {
            values.add(TestChannels.readLong(frame.payload()));
        }

        int size() {
            return values.size();
        }
    }
}
