package io.seqlink.spring.listener;

import io.seqlink.LogKeys;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelAttachException;
import io.seqlink.channel.ChannelState;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Attaches again, in the background, to a channel another process produces once its attachment failed (the producer
 * service stopped, died or restarted), and binds the channel's {@code @ChannelListener} methods to the new attachment
 * ({@link ChannelListenerEndpointRegistry#bindAttached}), so a consumer service outlives its producer's restarts. The
 * new attachment gets the frames published after it attached (the old one's guarantee ended with it); the failed one
 * is closed once the new one is bound.
 *
 * <p>One daemon thread looks at each configured channel every {@code seqlink.attach.<name>.reattach-interval} while
 * the registry runs; an attempt that finds no producer (or any other refusal) is retried at the next look, each
 * bounded by the attach's connect timeout. Started after the registry ({@link #getPhase()}), stopped before it drains.
 *
 * <p>Threading: {@link #start}, {@link #stop} and {@link #isRunning} are safe from any thread (the container calls
 * them); the attempts run on this bean's own thread only.
 */
public final class AttachedChannelRecovery implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AttachedChannelRecovery.class);

    /**
     * How one attached channel is attached again: its attach (built at each attempt, so a secret file replaced since
     * startup is read again), how often to look, and the attach's connect timeout (what one attempt may take).
     */
    public record Settings(Supplier<AttachSpec> spec, Duration interval, Duration connectTimeout) {
        public Settings {
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            if (interval.isZero() || interval.isNegative()) {
                throw new IllegalArgumentException("interval must be positive, was " + interval);
            }
        }
    }

    private final SeqlinkRuntime runtime;
    private final ChannelListenerEndpointRegistry registry;
    private final Map<String, Settings> channels;
    private @Nullable ScheduledExecutorService looks;

    public AttachedChannelRecovery(SeqlinkRuntime runtime, ChannelListenerEndpointRegistry registry, Map<String, Settings> channels) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.channels = Map.copyOf(new LinkedHashMap<>(channels));
    }

    @Override
    public synchronized void start() {
        if (looks != null || channels.isEmpty()) {
            return;
        }
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "seqlink-reattach");
            t.setDaemon(true);
            return t;
        });
        channels.forEach((name, settings) -> s.scheduleWithFixedDelay(() -> look(name, settings), settings.interval().toNanos(),
                settings.interval().toNanos(), TimeUnit.NANOSECONDS));
        looks = s;
    }

    /** Waits for an attempt in progress to end (at most its connect timeout and a second); the flag of an interrupt is kept. */
    @Override
    public synchronized void stop() {
        ScheduledExecutorService s = looks;
        if (s == null) {
            return;
        }
        looks = null;
        s.shutdownNow();
        long waitNanos = channels.values().stream().mapToLong(c -> c.connectTimeout().toNanos()).max().orElse(0)
                + TimeUnit.SECONDS.toNanos(1);
        try {
            s.awaitTermination(waitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return looks != null;
    }

    /** After the listener registry's start, so before its stop: no attempt runs while the registry drains. */
    @Override
    public int getPhase() {
        return ChannelListenerEndpointRegistry.DEFAULT_PHASE + 1;
    }

    /** One look at channel {@code name}: attaches again when its latest attachment failed and the registry runs. */
    private void look(String name, Settings settings) {
        AttachedChannel failed = runtime.attachedChannel(name).orElse(null);
        if (failed == null || failed.state() != ChannelState.FAILED || !registry.isRunning() || runtime.closed()) {
            return;
        }
        AttachedChannel again;
        try {
            again = runtime.attachChannel(settings.spec().get());
        } catch (ChannelAttachException | IllegalStateException | IllegalArgumentException notYet) {
            log.atDebug().addKeyValue(LogKeys.CHANNEL, name)
                    .log("seqlink channel '{}': attaching again failed, next try in {}: {}", name, settings.interval(),
                            notYet.getMessage());
            return;
        } catch (RuntimeException unexpected) {
            log.atWarn().addKeyValue(LogKeys.CHANNEL, name).setCause(unexpected)
                    .log("seqlink channel '{}': attaching again failed, next try in {}", name, settings.interval());
            return;
        }
        if (!registry.bindAttached(again)) {
            again.close(); // the registry stopped meanwhile: the new attachment would have no listener
            return;
        }
        failed.close();
        log.atInfo().addKeyValue(LogKeys.CHANNEL, name)
                .log("seqlink channel '{}' attached again after '{}': epoch {}, seat {}, from frame {} on; its listeners are bound",
                        name, failed.failure() == null ? "a failure" : failed.failure().getMessage(), again.epoch(), again.seat(),
                        again.startsAfter() + 1);
    }

}
