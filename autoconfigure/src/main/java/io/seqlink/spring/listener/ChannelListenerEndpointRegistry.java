package io.seqlink.spring.listener;

import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.channel.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Binds {@link ChannelListener} methods to their channels' consumers and runs the seqlink launcher
 * as part of the application's lifecycle, like spring-kafka's listener endpoint registry.
 *
 * <ul>
 * <li>Binding (when the listener beans exist): every listener is checked against the runtime's
 * channels (unknown channel, a device that is not a consumer, two listeners on one consumer; all
 * reported at once) and subscribed with the retry policy and the {@link FrameErrorHandler}.</li>
 * <li>{@link #start()} (phase {@value #DEFAULT_PHASE}: after the web server starts, before the
 * lifecycle beans of the default phase): starts the launcher, so consumption begins once the context
 * is ready; after a {@link #stop()} of a running context it resumes delivery.</li>
 * <li>{@link #stop()} when the context closes (after the web server's graceful shutdown has let the
 * requests in flight finish, before the server stops): drains every channel together within
 * {@code seqlink.shutdown.drain-timeout}: outside producers get {@code ClaimStatus.CLOSED} at once,
 * while listeners may still publish to other channels until all are quiet, so a listener forwarding
 * downstream loses nothing whatever the channels' order; then the channels close and the launcher
 * stops (within a second more). {@link #drainReports()} tells what was left undelivered and which
 * listeners had not returned, and it is logged.</li>
 * <li>{@link #stop()} of a context that stays open ({@code context.stop()}, {@code context.pause()}):
 * pauses delivery, as spring-kafka's containers stop consuming: the launcher stops, the channels stay
 * open, producers keep publishing into the rings (lossless ones are back-pressured once a ring is
 * full), and {@link #start()} delivers every frame published meanwhile. Closing a stopped context
 * still drains: the launcher runs again for the drain.</li>
 * </ul>
 *
 * <p>The states, each change under this object's monitor: {@code NEW} (not started), {@code RUNNING},
 * {@code PAUSED} (stopped, channels open), {@code DRAINED} (channels drained and closed; a start is refused).
 * {@link #isRunning()} is true in {@code RUNNING} only, and only while the runtime is open.
 *
 * <table>
 * <caption>Threading contract</caption>
 * <tr><th>method</th><th>who may call it</th></tr>
 * <tr><td>{@link #registerAll}, {@link #start}, {@link #stop}, {@link #onApplicationEvent}</td><td>any thread (the
 *     container's); serialized</td></tr>
 * <tr><td>{@link #endpoints}, {@link #listenerId}, {@link #drainReports}, {@link #isRunning}, {@link #bindAttached}</td><td>any thread</td></tr>
 * </table>
 */
public class ChannelListenerEndpointRegistry implements SmartLifecycle, ApplicationListener<ContextClosedEvent>,
        ApplicationContextAware {

    private static final Logger log = LoggerFactory.getLogger(ChannelListenerEndpointRegistry.class);

    /**
     * Between the web server's graceful shutdown ({@code WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE},
     * {@code Integer.MAX_VALUE - 1024}) and its start and stop ({@code START_STOP_LIFECYCLE_PHASE},
     * {@code Integer.MAX_VALUE - 2048}): lifecycle beans stop in descending phase, so seqlink drains once the
     * requests in flight have finished (a request publishing to a channel is never refused by seqlink's
     * shutdown), and the server stops after the drain.
     */
    public static final int DEFAULT_PHASE = Integer.MAX_VALUE - 1536;

    private enum State { NEW, RUNNING, PAUSED, DRAINED }

    private final SeqlinkRuntime runtime;
    private final RetryPolicy retryPolicy;
    private final FrameErrorHandler errorHandler;
    private final Duration drainTimeout;
    private final boolean autoStartup;
    private final List<ChannelListenerEndpoint> endpoints = new CopyOnWriteArrayList<>();
    private final Map<String, ChannelListenerEndpoint> byConsumer = new LinkedHashMap<>();
    private volatile List<DrainReport> drainReports = List.of();
    private volatile State state = State.NEW;
    /** Set once this registry's context began to close: a stop then drains instead of pausing. */
    private volatile boolean closing;
    private @Nullable ApplicationContext context;
    /** Wraps each single-frame listener before it is subscribed (the observation's hook); none by default. */
    private volatile BiFunction<ConsumerPort, FrameHandler, FrameHandler> frameHandlers = (port, handler) -> handler;

    public ChannelListenerEndpointRegistry(SeqlinkRuntime runtime, RetryPolicy retryPolicy, FrameErrorHandler errorHandler,
            Duration drainTimeout, boolean autoStartup) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
        this.drainTimeout = Objects.requireNonNull(drainTimeout, "drainTimeout");
        this.autoStartup = autoStartup;
    }

    /**
     * Sets what wraps each single-frame {@code @ChannelListener} (a {@code FRAME} listener) before it is subscribed
     * to its consumer port, e.g. to observe its calls; the listeners bound after this call get it. Call it before the
     * listeners are bound (the container's startup thread, while the registry bean is initialized).
     */
    public void setFrameHandlerDecorator(BiFunction<ConsumerPort, FrameHandler, FrameHandler> decorator) {
        this.frameHandlers = Objects.requireNonNull(decorator, "decorator");
    }

    /**
     * Checks {@code listeners} against the runtime's channels, reporting every problem at once, then
     * subscribes each to its consumers.
     *
     * @throws SeqlinkConfigurationException listing every listener problem; nothing is subscribed then. Also
     *         when another thread subscribes a listener in code to one of these consumers while they are bound:
     *         that listener stays, the error names both (the listeners bound before it stay bound)
     */
    public synchronized void registerAll(List<ChannelListenerEndpoint> listeners) {
        List<Violation> problems = new ArrayList<>();
        Map<String, ChannelListenerEndpoint> claimed = new LinkedHashMap<>(byConsumer);
        List<Runnable> subscriptions = new ArrayList<>();
        for (ChannelListenerEndpoint ep : listeners) {
            String where = "@ChannelListener(channel = \"" + ep.channel() + "\"" + (ep.device() < 0 ? "" : ", device = "
                    + ep.device()) + ") on " + ep.describe();
            Optional<PublishChannel> found = runtime.channel(ep.channel());
            Optional<AttachedChannel> attached = found.isPresent() ? Optional.empty() : runtime.attachedChannel(ep.channel());
            if (found.isEmpty() && attached.isEmpty()) {
                List<String> names = new ArrayList<>(runtime.channels().stream().map(PublishChannel::name).toList());
                runtime.attachedChannels().forEach(a -> names.add(a.name()));
                problems.add(new Violation(where, "there is no channel '" + ep.channel() + "'; the channels are " + names,
                        "configure seqlink.channels." + ep.channel() + " (producer and consumers), or seqlink.attach."
                                + ep.channel() + " when another process produces it, or name one of " + names));
                continue;
            }
            String name = found.map(PublishChannel::name).orElseGet(() -> attached.orElseThrow().name());
            List<Integer> consumers = found.map(PublishChannel::consumerDevices)
                    .orElseGet(() -> List.of(attached.orElseThrow().consumer().device()));
            int producer = found.map(c -> c.spec().producer()).orElse(-1);
            List<Integer> devices = ep.device() < 0 ? consumers : List.of(ep.device());
            if (ep.device() >= 0 && !consumers.contains(ep.device())) {
                problems.add(new Violation(where, "device " + ep.device() + " is not a consumer of channel '"
                        + name + "' (consumers " + consumers + ")", "set device to one of " + consumers + ", or "
                        + (found.isPresent() ? "add " + ep.device() + " to seqlink.channels." + name + ".consumers"
                                : "set seqlink.attach." + name + ".device=" + ep.device())));
                continue;
            }
            for (int d : devices) {
                String key = key(name, d);
                ChannelListenerEndpoint other = claimed.get(key);
                ConsumerPort port = found.isPresent() ? found.get().consumer(d) : attached.orElseThrow().consumer();
                if (other != null) {
                    problems.add(new Violation(where, "consumer device " + d + " of channel '" + name
                            + "' already has the listener " + other.describe(), "a device runs one listener per channel: "
                            + "give each listener its own device (the device attribute), or merge them"));
                    continue;
                }
                if (port.subscribed()) {
                    problems.add(new Violation(where, "consumer device " + d + " of channel '" + name
                            + "' already has a listener subscribed in code", "subscribe either in code or with @ChannelListener"));
                    continue;
                }
                claimed.put(key, ep);
                subscriptions.add(() -> subscribe(ep, name, producer, port));
            }
        }
        if (!problems.isEmpty()) {
            throw new SeqlinkConfigurationException(problems);
        }
        subscriptions.forEach(Runnable::run);
        byConsumer.clear();
        byConsumer.putAll(claimed);
        endpoints.addAll(listeners);
    }

    /** Binds {@code ep} unless another thread subscribed a listener in code since the check: then it names both. */
    private void subscribe(ChannelListenerEndpoint ep, String channel, int producer, ConsumerPort port) {
        ListenerInvoker invoker = new ListenerInvoker(ep, port, producer);
        try {
            switch (ep.kind()) {
                case FRAME -> port.subscribeIfNone(frameHandlers.apply(port, invoker), retryPolicy, errorHandler);
                case BATCH -> port.subscribeBatchesIfNone(invoker, retryPolicy, errorHandler);
                case DEVICE -> port.subscribeDeviceIfNone(invoker, retryPolicy, errorHandler);
            }
        } catch (IllegalStateException taken) {
            throw new SeqlinkConfigurationException(List.of(new Violation("@ChannelListener(channel = \"" + channel
                    + "\") on " + ep.describe(), taken.getMessage() + " (subscribed in code while the listeners were bound)",
                    "subscribe either in code or with @ChannelListener")));
        }
        log.debug("seqlink: {} listens on channel '{}' device {} ({})", ep.id(), channel, port.device(), port.transport());
    }

    /**
     * Binds the {@code @ChannelListener} of {@code again}'s name and device, bound to an earlier attachment of that name
     * which failed, to {@code again}: a channel attached again ({@link AttachedChannelRecovery}). Returns whether the
     * registry runs (or is paused) and so bound it, or found no listener to bind; {@code false} once it was drained
     * (the context closes), binding nothing. Any thread.
     */
    public synchronized boolean bindAttached(AttachedChannel again) {
        if (state == State.DRAINED || state == State.NEW || runtime.closed()) {
            return false;
        }
        ConsumerPort port = again.consumer();
        ChannelListenerEndpoint ep = byConsumer.get(key(again.name(), port.device()));
        if (ep != null) {
            subscribe(ep, again.name(), -1, port);
        }
        return true;
    }


    private static String key(String channel, int device) {
        return channel + "/" + device;
    }

    /** The listeners bound, in registration order. */
    public List<ChannelListenerEndpoint> endpoints() {
        return List.copyOf(endpoints);
    }

    /** The id of the listener on consumer {@code device} of {@code channel}, if one is bound. */
    public synchronized Optional<String> listenerId(String channel, int device) {
        ChannelListenerEndpoint ep = byConsumer.get(key(channel, device));
        return Optional.ofNullable(ep).map(ChannelListenerEndpoint::id);
    }

    /** What the last {@link #stop()} left undelivered, per channel; empty before it ran. */
    public List<DrainReport> drainReports() {
        return drainReports;
    }

    public SeqlinkRuntime runtime() {
        return runtime;
    }

    @Override
    public void setApplicationContext(ApplicationContext applicationContext) {
        this.context = applicationContext;
    }

    /**
     * Starts the launcher (consumption begins), or resumes delivery after a {@link #stop()} that paused it.
     *
     * @throws IllegalStateException when the channels were drained and closed (the context closed), or the
     *         runtime is closed: nothing can reopen them in this context
     */
    @Override
    public synchronized void start() {
        if (state == State.RUNNING && !runtime.closed()) {
            return;
        }
        if (state == State.DRAINED || runtime.closed()) {
            throw new IllegalStateException("seqlink cannot start again: its channels were drained and closed "
                    + (state == State.DRAINED ? "when the application context began to close" : "with the SeqlinkRuntime")
                    + ", and closed channels do not reopen. Start a new application context; to pause and resume "
                    + "delivery, stop() and start() the running context instead");
        }
        if (state == State.NEW) {
            warnAboutConsumersWithoutListeners();
        }
        runtime.start();
        if (state == State.PAUSED) {
            log.info("seqlink started again: the launcher delivers what was published while it was stopped");
        }
        state = State.RUNNING;
    }

    private void warnAboutConsumersWithoutListeners() {
        for (AttachedChannel a : runtime.attachedChannels()) {
            if (!a.consumer().subscribed()) {
                log.warn("seqlink channel '{}' (attached from another process): its consumer on device {} has no listener; "
                        + "it takes no frames and holds the producer back once its ring is full; add a "
                        + "@ChannelListener(channel = \"{}\") or remove seqlink.attach.{}", a.name(), a.consumer().device(),
                        a.name(), a.name());
            }
        }
        for (PublishChannel ch : runtime.channels()) {
            for (int d : ch.consumerDevices()) {
                if (!ch.consumer(d).subscribed()) {
                    log.warn("seqlink channel '{}': consumer device {} has no listener; it takes no frames{}", ch.name(), d,
                            ch.spec().delivery() == io.seqlink.channel.Delivery.LOSSLESS
                                    ? " and will hold the producer back once the ring is full (lossless)" : "");
                }
            }
        }
    }

    /**
     * While the context closes: drains and closes every channel, then stops the launcher (the shutdown this
     * class describes). Otherwise ({@code context.stop()}): pauses delivery, the channels staying open.
     */
    @Override
    public synchronized void stop() {
        if (state != State.RUNNING) {
            return;
        }
        if (closing) {
            drainAndClose();
            return;
        }
        runtime.launcher().stop();
        state = State.PAUSED;
        log.info("seqlink stopped: delivery is paused and the channels stay open (producers are back-pressured once a "
                + "lossless ring is full); start() resumes it");
    }

    /**
     * Marks this registry's context as closing, so that the lifecycle's {@link #stop()} drains; a context stopped
     * before it closes is drained here (the lifecycle stops only what runs), the launcher running again for it.
     */
    @Override
    public synchronized void onApplicationEvent(ContextClosedEvent event) {
        if (context != null && event.getApplicationContext() != context) {
            return; // a child context's close reaches its parent's listeners too
        }
        closing = true;
        if (state == State.PAUSED && !runtime.closed()) {
            runtime.start();
            state = State.RUNNING;
            drainAndClose();
        }
    }

    private void drainAndClose() {
        List<DrainReport> reports = runtime.drainAndCloseChannels(drainTimeout);
        runtime.launcher().stop();
        drainReports = reports;
        state = State.DRAINED;
        long published = reports.stream().mapToLong(DrainReport::published).sum();
        long undelivered = reports.stream().mapToLong(DrainReport::totalUndelivered).sum();
        if (reports.stream().allMatch(DrainReport::clean)) {
            log.info("seqlink stopped: {} channel(s) drained, every one of {} published frame(s) delivered", reports.size(),
                    published);
        } else {
            List<String> unclean = reports.stream().filter(r -> !r.clean()).map(DrainReport::describe).toList();
            log.warn("seqlink stopped: {} of {} published frame(s) left undelivered; {}", undelivered, published,
                    String.join("; ", unclean));
        }
    }

    /** Whether the launcher delivers: started, not stopped, and the runtime open. */
    @Override
    public boolean isRunning() {
        return state == State.RUNNING && !runtime.closed();
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
