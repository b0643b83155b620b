package io.seqlink.channel;

import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.PublishBinding;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.topology.Transport;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * One consumer of a channel, on one device: subscribe a listener and let the launcher drive it, or
 * poll it yourself. The parts: {@link ConsumerTransport} (memory and device steps),
 * {@link PollerSeat} (the one poller, and the listener's own thread under the launcher),
 * {@link RoundMachine} (the rounds, owned by the poller), {@link FrameDelivery} (listener calls,
 * retries, dead letters), {@link StallWatch} (the watchdog's view). Nothing here allocates per frame.
 *
 * <table>
 * <caption>Threading contract</caption>
 * <tr><th>method</th><th>who may call it</th><th>enforced by</th></tr>
 * <tr><td>{@link #subscribe}, {@link #subscribeBatches}, {@link #subscribeDevice}, {@link #unsubscribe},
 *     {@link #retryPolicy}, {@link #errorHandler}, {@link #latencyRecorder}</td><td>any thread; the change is atomic
 *     and takes effect at the next round (a round reads the subscription once)</td><td>one volatile, immutable
 *     subscription</td></tr>
 * <tr><td>{@link #subscribeIfNone}, {@link #subscribeBatchesIfNone}, {@link #subscribeDeviceIfNone}</td><td>any thread; subscribes (with its retry policy and error handler) only
 *     if the port has no listener, atomically with every other subscribe</td><td>the port's monitor, which every
 *     subscription change holds</td></tr>
 * <tr><td>{@link #pause}, {@link #resume}</td><td>any thread</td><td>compare-and-set of the state: they never
 *     undo {@code DEAD} or {@code CLOSED}</td></tr>
 * <tr><td>{@link #poll(int)}, {@link #poll(FrameHandler, int)}</td><td>one user thread at a time, and only while
 *     the launcher does not drive the port (its runtime is not started); the listener runs on the calling thread</td>
 *     <td>{@link IllegalStateException} at once, naming the rule and the other poller</td></tr>
 * <tr><td>everything else ({@link #state}, {@link #snapshot}, {@link #acknowledged}, ...)</td><td>any thread</td>
 *     <td>reads of volatile state and host mirrors</td></tr>
 * </table>
 *
 * <p>Under the launcher the device loop runs the listener inline, but never waits for it: the retries of
 * a failed frame (backoff included) run on a listener thread of the port's own
 * ({@code seqlink-listener-<channel>-<device>}), and a listener that holds the loop up for more than a
 * couple of milliseconds gets that thread (until its rounds are quick again) while a new loop thread serves the device's other
 * ports. So a listener that fails, retries, waits or blocks holds up its own consumer only.
 */
public final class ConsumerPort {

    private final DefaultPublishChannel channel;
    private final int device;
    private final Transport transport;
    private final ConsumerTransport binding;
    private final CounterSet counters = new CounterSet(PortCounters.COUNTERS);
    private final LatencyRecorder latency;
    private final FrameDelivery delivery;
    private final RoundMachine rounds;
    private final StallWatch stall;
    private final MemoryGuard guard;
    private final PortDriver driver = new PortDriver(this);
    private final PollerSeat seat = new PollerSeat(this);
    private final ConsumerLife life;
    private final PortSubscriptions subscriptions;
    private final ConsumerMirror mirror;

    ConsumerPort(DefaultPublishChannel channel, Backend backend, int device, Transport transport,
            List<PublishBinding.PushTarget> pushTargets, List<AutoCloseable> resources, Runnable onQuiet) {
        this.channel = channel;
        this.device = device;
        this.transport = Objects.requireNonNull(transport, "transport for consumer " + device);
        this.binding = new ConsumerTransport(backend, channel.spec(), channel.controlBlock(), channel.ringBuffer(), device, transport,
                pushTargets, resources);
        this.latency = new LatencyRecorder(channel.publishTimes(), counters);
        this.delivery = new FrameDelivery(this, binding, channel.geometry(), channel.publishTimes(), latency, counters);
        this.rounds = new RoundMachine(this, channel, binding, counters, delivery);
        this.stall = new StallWatch(this, channel.spec().stallTimeout().toNanos());
        this.guard = new MemoryGuard(onQuiet);
        this.life = new ConsumerLife(this, channel);
        this.subscriptions = new PortSubscriptions(this, binding);
        this.mirror = new ConsumerMirror(binding);
    }

    // ---- description --------------------------------------------------------------------------

    public String channel() {
        return channel.name();
    }

    public int device() {
        return device;
    }

    public Transport transport() {
        return transport;
    }

    public ConsumerState state() {
        return life.state();
    }

    public boolean stalled() {
        return stall.stalled();
    }

    /** Whether the listener is retrying a failed frame (an attempt after the first, or holding at a refused dead letter). */
    public boolean retrying() {
        return rounds.round().attempt() > 1 || rounds.holding();
    }

    public @Nullable Throwable failure() {
        return life.failure();
    }

    /** The consumer's stream: a device listener's work goes here. */
    public DeviceStream stream() {
        return binding.stream;
    }

    // ---- wiring -------------------------------------------------------------------------------

    /** Subscribes a host listener called once per frame. Replaces any earlier listener from the next round. */
    public ConsumerPort subscribe(FrameHandler handler) {
        Objects.requireNonNull(handler, "handler");
        return change(s -> s.withFrames(handler), true);
    }

    /** Subscribes a host listener called once per round with its frames. Replaces any earlier listener from the next round. */
    public ConsumerPort subscribeBatches(FrameBatchHandler handler) {
        Objects.requireNonNull(handler, "handler");
        return change(s -> s.withBatches(handler), true);
    }

    /** Subscribes a device listener that enqueues work on each round's frames. Replaces any earlier listener from the next round. */
    public ConsumerPort subscribeDevice(DeviceFrameHandler handler) {
        channel.spec().checkDeviceListener(device, handler);
        return change(s -> s.withDevice(handler), false);
    }

    /**
     * Removes the listener: from the next round none is called and the port takes no frames (they stay in
     * the channel unacknowledged: a lossless channel backs up, a latest one laps the port). A round
     * already begun finishes with the listener it began with, on the thread delivering it; a frame that
     * listener then refuses stays unacknowledged and is not retried (logged at DEBUG, not as an error).
     * A listener subscribed later takes over from the first unacknowledged frame. Any thread; returns
     * whether a listener was subscribed.
     */
    public boolean unsubscribe() {
        boolean[] had = new boolean[1];
        change(s -> {
            had[0] = s.subscribed();
            return s.withoutListener();
        }, false);
        return had[0];
    }

    /**
     * {@link #subscribe} with {@code policy} and {@code errors}, only if the port has no listener: the check
     * and the change are one step, so a listener another thread subscribes meanwhile is never replaced.
     *
     * @throws IllegalStateException naming the consumer and both listeners when one is subscribed already
     */
    public ConsumerPort subscribeIfNone(FrameHandler handler, RetryPolicy policy, FrameErrorHandler errors) {
        Objects.requireNonNull(handler, "handler");
        subscriptions.changeIfNone(handler, s -> s.withFrames(handler), policy, errors, true);
        return this;
    }

    /** {@link #subscribeIfNone(FrameHandler, RetryPolicy, FrameErrorHandler)} for a batch listener. */
    public ConsumerPort subscribeBatchesIfNone(FrameBatchHandler handler, RetryPolicy policy, FrameErrorHandler errors) {
        Objects.requireNonNull(handler, "handler");
        subscriptions.changeIfNone(handler, s -> s.withBatches(handler), policy, errors, true);
        return this;
    }

    /** {@link #subscribeIfNone(FrameHandler, RetryPolicy, FrameErrorHandler)} for a device listener. */
    public ConsumerPort subscribeDeviceIfNone(DeviceFrameHandler handler, RetryPolicy policy, FrameErrorHandler errors) {
        channel.spec().checkDeviceListener(device, handler);
        subscriptions.changeIfNone(handler, s -> s.withDevice(handler), policy, errors, false);
        return this;
    }

    public boolean subscribed() {
        return subscriptions.current().subscribed();
    }

    /** How a failing listener is retried (the waits happen on the thread that delivers, never on the device loop). */
    public ConsumerPort retryPolicy(RetryPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        return change(s -> s.withRetry(policy), false);
    }

    /** Where frames go after their last failed retry (default: logged at ERROR and counted). */
    public ConsumerPort errorHandler(FrameErrorHandler handler) {
        Objects.requireNonNull(handler, "handler");
        return change(s -> s.withErrors(handler), false);
    }

    /** Receives the publish-to-ack latency of every delivered frame, in nanoseconds (e.g. a timer). */
    public ConsumerPort latencyRecorder(LongConsumer recorder) {
        latency.recorder(recorder);
        return this;
    }

    private ConsumerPort change(UnaryOperator<Subscription> change, boolean host) {
        subscriptions.change(change, host);
        return this;
    }

    Subscription subscription() {
        return subscriptions.current();
    }

    // ---- operator controls --------------------------------------------------------------------

    /** Stops polling this consumer (lossless frames wait for it, latest frames lap it); false unless it was active. */
    public boolean pause() {
        return life.pause();
    }

    /** Polls a paused consumer again; false unless it was paused. */
    public boolean resume() {
        return life.resume();
    }

    /** The channel closed: CLOSED, unless the consumer died first. */
    void stop() {
        life.stop();
    }

    /** The consumer's device failed: DEAD, unless the channel closed first; applies the channel's policy once. */
    void die(DeviceException cause) {
        life.die(cause);
    }

    /** Marks the consumer dead from outside (its device was lost). */
    void deviceLost(Throwable cause) {
        die(cause instanceof DeviceException d ? d : new DeviceException("CUDA_ERROR_UNKNOWN", "device", device, true, cause.getMessage()));
    }

    boolean active() {
        return life.active();
    }

    boolean deliverable() {
        return life.deliverable();
    }

    boolean gates() {
        return life.gates();
    }

    MemoryGuard guard() {
        return guard;
    }

    PortDriver driver() {
        return driver;
    }

    void markProgress() {
        stall.progress();
    }

    // ---- positions ----------------------------------------------------------------------------

    /** The highest sequence this consumer acknowledged, from its host mirror (its final value once closed). */
    public long acknowledged() {
        boolean inside = channel.enterObserver();
        try {
            return acked();
        } finally {
            if (inside) {
                channel.exitObserver();
            }
        }
    }

    /** {@link #acknowledged()} for callers inside a guard already. */
    long acked() {
        return mirror.word(ConsumerBlock.CONSUMED_SEQ);
    }

    /**
     * Frames the producer has published (its publish enqueued, whether or not the device has run it
     * yet) that this consumer has not acknowledged. Unlike {@link ConsumerSnapshot#lag()}, which
     * counts from the device's {@code publish_seq}, this is what a drain must wait for.
     */
    public long backlog() {
        return Math.max(0, channel.publishedCount() - acknowledged());
    }

    /** Keeps the mirror's words: the channel is about to free the mirror. The caller holds a guard. */
    void freeze() {
        mirror.freeze();
    }

    // ---- polling ------------------------------------------------------------------------------

    /**
     * One round with the subscribed listener, on the calling thread, taking at most {@code maxFrames}.
     * Returns the frames handled (0 when there was nothing, the round is still in flight, or the
     * consumer is not active). Throws {@link IllegalStateException} when the port has no listener, when
     * the launcher drives it, or when another thread is polling it.
     */
    public int poll(int maxFrames) {
        if (!subscribed()) {
            throw new IllegalStateException("consumer " + device + " of channel '" + channel.name()
                    + "' has no listener; subscribe one or call poll(handler, maxFrames)");
        }
        return pollAsUser(maxFrames);
    }

    /** {@link #poll(int)} delivering to {@code handler}, which becomes the port's listener. */
    public int poll(FrameHandler handler, int maxFrames) {
        seat.checkUserPoll();
        Subscription s = subscriptions.current();
        if (s.kind != Subscription.Kind.FRAME || s.frames != handler) {
            subscribe(handler);
        }
        return pollAsUser(maxFrames);
    }

    private int pollAsUser(int maxFrames) {
        if (maxFrames < 1) {
            throw new IllegalArgumentException("maxFrames must be at least 1, was " + maxFrames);
        }
        return seat.pollAsUser(maxFrames);
    }

    /** One round step on the poller's thread, delivering as {@code mode} ({@link RoundMachine#USER}, ...) says. */
    int pollInside(int maxFrames, int mode) {
        ConsumerState s = state();
        if (s == ConsumerState.CLOSED || s == ConsumerState.DEAD || !guard.enter()) {
            return 0;
        }
        try {
            return rounds.step(maxFrames, mode);
        } catch (DeviceException ex) {
            die(ex);
            return 0;
        } finally {
            guard.exit();
        }
    }

    PollerSeat seat() {
        return seat;
    }

    RoundMachine rounds() {
        return rounds;
    }

    // ---- watchdog and snapshot ----------------------------------------------------------------

    /**
     * The watchdog's look: fails the consumer when its device steps report a broken rule ({@link ProtocolReports}),
     * else whether it is stalled now. The launcher's watchdog thread.
     */
    boolean checkStall(long nowNanos) {
        if (state() != ConsumerState.ACTIVE || !channel.enterObserver()) {
            stall.clear();
            return false;
        }
        DeviceException broken;
        try {
            broken = ProtocolReports.failure(channel.name(), device, mirror.word(ConsumerBlock.SHORT_ROUNDS),
                    mirror.word(ConsumerBlock.PROTOCOL_ERROR));
            if (broken == null) {
                return stall.check(nowNanos, acked(), channel.publishedOnDevice(), counters);
            }
        } finally {
            channel.exitObserver();
        }
        die(broken); // after the guard: nothing here reads the memory any more, and the failure policy may fail the channel
        stall.clear();
        return false;
    }

    ConsumerSnapshot snapshot(long publishedOnDevice) {
        long ack = acked();
        ConsumerState state = state(); // once: DEAD is final, and its failure was recorded before it
        Throwable f = state == ConsumerState.DEAD ? life.failure() : null;
        // the armed counters before the device's: the host counts an empty armed round after the step's mirror
        // holds it, so the ordinary count below is never short (at most one high while a landing is counted)
        long earlyWakes = counters.get(PortCounters.C_ARMED_EARLY_WAKES);
        long released = counters.get(PortCounters.C_ARMED_RELEASED);
        long ordinaryEmpty = Math.max(0, mirror.word(ConsumerBlock.EMPTY_POLLS) - earlyWakes - released);
        return new ConsumerSnapshot(device, transport, state, stalled(), retrying(), ack, Math.max(0, publishedOnDevice - ack),
                counters.get(PortCounters.C_DELIVERED), counters.get(PortCounters.C_MISSED), mirror.word(ConsumerBlock.LAPS),
                counters.get(PortCounters.C_ROUNDS), mirror.word(ConsumerBlock.READS), ordinaryEmpty, earlyWakes, released,
                counters.get(PortCounters.C_HOST_EMPTY), counters.get(PortCounters.C_RETRIES), counters.get(PortCounters.C_DEAD_LETTERED),
                counters.get(PortCounters.C_STALLS), counters.get(PortCounters.C_LAT_COUNT), counters.get(PortCounters.C_LAT_TOTAL),
                counters.get(PortCounters.C_LAT_MAX), mirror.word(ConsumerBlock.SHORT_ROUNDS), f == null ? null : f.getMessage());
    }

    public ConsumerSnapshot snapshot() {
        boolean inside = channel.enterObserver();
        try {
            return snapshot(channel.publishedOnDevice());
        } finally {
            if (inside) {
                channel.exitObserver();
            }
        }
    }

    @Override
    public String toString() {
        return "ConsumerPort[" + channel.name() + "/" + device + ", " + transport + ", " + state() + "]";
    }
}
