package io.seqlink.channel.consumer;

import io.seqlink.LogKeys;
import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameBatchHandler;
import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.ReadMode;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.channel.memory.MemoryGuard;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.topology.Transport;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel's consumer on one device ({@link ConsumerPort}, whose class comment states the contract users rely on),
 * put together from its parts: {@link ConsumerSteps} (memory and device steps over a {@link ConsumerLink}),
 * {@link Subscriptions} (the listener and its changes), {@link Rounds} (the rounds, owned by the poller),
 * {@link Attempts} (failures), {@link PollerSeat} (who polls), {@link ConsumerLife} (the state) and
 * {@link StallWatch}. It holds no logic of its own beyond choosing a listener's {@link ListenerDelivery} and the
 * memory guard around every use. Nothing here allocates per frame.
 *
 * <p>The public methods beyond {@link ConsumerPort} are the owning channel's (its drain, gating and close) and the
 * launcher's ({@link #driver()}); each says who calls it.
 */
public final class DefaultConsumerPort implements ConsumerPort {

    private static final Logger log = LoggerFactory.getLogger(DefaultConsumerPort.class);

    private final String channel;
    private final int device;
    private final Transport transport;
    private final ChannelSpec spec;
    private final ProducerView producer;
    private final CounterSet counters = new CounterSet(PortCounters.COUNTERS);
    private final ConsumerSteps steps;
    private final LatencyRecorder latency;
    private final StallWatch stall;
    private final MemoryGuard guard;
    private final PollerSeat seat;
    private final ConsumerLife life;
    private final Subscriptions subscriptions;
    private final Attempts attempts;
    private final Rounds rounds;
    private final DeliveryContext deliveries;
    private final PortDriver driver;
    /**
     * The seat of a port attached from another process, which its rounds are checked against and acknowledged into;
     * {@code null} for a channel's own port.
     */
    private final @Nullable LeasedSeat leased;

    /**
     * Allocates the consumer's memory (tracked in {@code allocations}, which the channel frees) and binds its steps.
     *
     * @param producerControl the producer's control block, producerRing its ring, doorbells the armed rounds' doorbell
     *                        ring ({@code null}: the channel arms no round)
     * @param pushTargets     where a push transport adds the replica the producer's publish step must write
     * @param onQuiet         runs once the port's memory guard is shut and empty (the channel counts quiet guards)
     * @param onDeath         the channel's consumer-failure policy, run once when the consumer dies
     * @param bell            the channel's publish bell, whose slot {@code bellSlot} the port's dozing loop arms
     */
    public DefaultConsumerPort(Backend backend, ChannelSpec spec, int device, Transport transport, Memory producerControl,
            Memory producerRing, @Nullable MappedBuffer doorbells, ProducerView producer, List<PublishBinding.PushTarget> pushTargets,
            List<AutoCloseable> allocations, Runnable onQuiet, Consumer<DeviceException> onDeath, PublishBell bell, int bellSlot) {
        this(backend, spec, device, transport, new ConsumerLink.Setup(backend, spec.producer(), backend.device(device),
                spec.geometry(), producerControl, producerRing, pushTargets, allocations, 0), doorbells, producer, onQuiet, onDeath,
                bell, bellSlot, null, null);
    }

    /**
     * Where an attached channel's consumer reads and acknowledges, all in the region it shares with the producer's
     * process: the replica's control block and ring, and its seat's mirror, whose {@code consumed_seq} the producer
     * gates on and which already holds the sequence the port starts after.
     */
    public record SharedReplica(MappedBuffer control, MappedBuffer ring, MappedBuffer seat) {
    }

    /**
     * The consumer of a channel attached from another process ({@link Transport#SHARED_MEMORY}): it reads the shared
     * replica in place (a host listener on the host, a device listener's steps and kernels on {@code device}, which has
     * the region mapped) and acknowledges into the seat only through a look at {@code lease}, the seat the producer gates
     * on ({@link LeasedSeat}); the first frame it delivers is the one after the seat's {@code consumed_seq}. Its device
     * steps write a host mirror of its own, never the seat. {@code spec} describes the producer's channel as the
     * handshake gave it, with {@code device} a consumer, a host listener (so a host listener reads the replica in place)
     * and armed rounds off. Its own memory is tracked in {@code allocations}. Any thread (the attaching one); the port is
     * then used as any other, except that no publish in this process rings a bell for it: its device loop never dozes
     * while it is active with a listener ({@link PortDriver#holdsLoopAwake}).
     */
    public static DefaultConsumerPort attached(Backend backend, ChannelSpec spec, int device, SharedReplica replica,
            SeatLease lease, ProducerView producer, List<AutoCloseable> allocations, Runnable onQuiet,
            Consumer<DeviceException> onDeath) {
        if (!spec.pushesToHost(device) || spec.armedRounds()) {
            throw new IllegalArgumentException("an attached channel's spec must name consumer " + device + " a host listener of "
                    + "a lossless channel with armed rounds off (host and device listeners read its frames in place, each "
                    + "round checked against the seat's lease, and no round waits on a doorbell across processes); got " + spec);
        }
        long startsAfter = replica.seat().getAcquire(ConsumerBlock.CONSUMED_SEQ);
        return new DefaultConsumerPort(backend, spec, device, Transport.SHARED_MEMORY, new ConsumerLink.Setup(backend,
                spec.producer(), backend.device(device), spec.geometry(), replica.control(), replica.ring(), List.of(), allocations,
                startsAfter), null, producer, onQuiet, onDeath, null, -1, Objects.requireNonNull(lease, "lease"), replica.seat());
    }

    private DefaultConsumerPort(Backend backend, ChannelSpec spec, int device, Transport transport, ConsumerLink.Setup setup,
            @Nullable MappedBuffer doorbells, ProducerView producer, Runnable onQuiet, Consumer<DeviceException> onDeath,
            @Nullable PublishBell bell, int bellSlot, @Nullable SeatLease lease, @Nullable MappedBuffer leasedSeat) {
        this.channel = spec.name();
        this.device = device;
        this.transport = Objects.requireNonNull(transport, "transport for consumer " + device);
        this.spec = spec;
        this.producer = producer;
        this.steps = new ConsumerSteps(ConsumerLink.of(transport), setup, channel, spec.readMode() == ReadMode.COPY,
                spec.delivery() == Delivery.LATEST, spec.maxPublishBatch(), spec.pushesToHost(device));
        long stallNanos = spec.stallTimeout().toNanos();
        this.leased = lease == null || leasedSeat == null ? null
                : new LeasedSeat(lease, leasedSeat, steps.mirror, setup.startsAfter());
        ArmedRound armed = ArmedRound.of(doorbells, new CancelMark(steps.mirror, steps.block, setup.consumer()), steps.stream,
                stallNanos);
        this.latency = new LatencyRecorder(producer, counters);
        this.stall = new StallWatch(channel, device, stallNanos);
        this.guard = new MemoryGuard(onQuiet);
        this.seat = new PollerSeat(channel, device);
        Runnable release = armed == null ? () -> { } : armed::cancel;
        this.life = new ConsumerLife(channel, device, spec.consumerFailurePolicy() == ConsumerFailurePolicy.KEEP_WAITING, release,
                onDeath);
        this.subscriptions = new Subscriptions(channel, device, release, this::logDeadLetter);
        this.attempts = new Attempts(channel, device, subscriptions, counters, life::deliverable);
        this.rounds = new Rounds("seqlink-listener-" + channel + "-" + device, steps, subscriptions, attempts, life, producer, counters,
                stall, seat, guard, armed, leased, spec.geometry(), spec.delivery() == Delivery.LATEST, spec.maxPublishBatch(),
                steps.mirrorWord(ConsumerBlock.CONSUMED_SEQ));
        this.deliveries = new DeliveryContext(channel, device, spec.geometry(), steps, attempts, counters, latency, producer,
                armed != null, leased);
        this.driver = new PortDriver(this, seat, rounds, attempts, this::checkStall, bell, bellSlot);
    }

    // ---- description ------------------------------------------------------------------------------------------

    @Override
    public String channel() {
        return channel;
    }

    @Override
    public int device() {
        return device;
    }

    @Override
    public Transport transport() {
        return transport;
    }

    @Override
    public ConsumerState state() {
        return life.state();
    }

    @Override
    public boolean stalled() {
        return stall.stalled();
    }

    @Override
    public boolean retrying() {
        return attempts.attempt() > 1 || attempts.holding();
    }

    @Override
    public @Nullable Throwable failure() {
        return life.failure();
    }

    @Override
    public DeviceStream stream() {
        return steps.stream;
    }

    // ---- listeners --------------------------------------------------------------------------------------------

    @Override
    public ConsumerPort subscribe(FrameHandler handler) {
        Objects.requireNonNull(handler, "handler");
        HostFrames frames = hostFrames();
        subscriptions.subscribe(handler, l -> new HostFrameDelivery(deliveries, frames, handler));
        seat.wakeLoop(); // a dozing loop armed no bell for a port without a listener
        return this;
    }

    @Override
    public ConsumerPort subscribeBatches(FrameBatchHandler handler) {
        Objects.requireNonNull(handler, "handler");
        HostFrames frames = hostFrames();
        subscriptions.subscribe(handler, l -> new HostBatchDelivery(deliveries, frames, handler));
        seat.wakeLoop();
        return this;
    }

    @Override
    public ConsumerPort subscribeDevice(DeviceFrameHandler handler) {
        checkDeviceListener(handler);
        subscriptions.subscribe(handler, l -> deviceDelivery(handler));
        seat.wakeLoop();
        return this;
    }

    @Override
    public boolean unsubscribe() {
        return subscriptions.unsubscribe();
    }

    @Override
    public ConsumerPort subscribeIfNone(FrameHandler handler, RetryPolicy policy, FrameErrorHandler errors) {
        Objects.requireNonNull(handler, "handler");
        HostFrames frames = hostFrames();
        subscriptions.subscribeIfNone(handler, l -> new HostFrameDelivery(deliveries, frames, handler), policy, errors);
        seat.wakeLoop();
        return this;
    }

    @Override
    public ConsumerPort subscribeBatchesIfNone(FrameBatchHandler handler, RetryPolicy policy, FrameErrorHandler errors) {
        Objects.requireNonNull(handler, "handler");
        HostFrames frames = hostFrames();
        subscriptions.subscribeIfNone(handler, l -> new HostBatchDelivery(deliveries, frames, handler), policy, errors);
        seat.wakeLoop();
        return this;
    }

    @Override
    public ConsumerPort subscribeDeviceIfNone(DeviceFrameHandler handler, RetryPolicy policy, FrameErrorHandler errors) {
        checkDeviceListener(handler);
        subscriptions.subscribeIfNone(handler, l -> deviceDelivery(handler), policy, errors);
        seat.wakeLoop();
        return this;
    }

    /** The delivery of a device listener, by the ending it asks for (read once, as it is subscribed). */
    private DeviceDelivery deviceDelivery(DeviceFrameHandler handler) {
        if (handler.consumesInKernel()) {
            return new RoundKernelDelivery(deliveries, handler);
        }
        return handler.acknowledgesInKernel() ? new KernelAckDelivery(deliveries, handler) : new ListenerKernelsDelivery(deliveries, handler);
    }

    private void checkDeviceListener(DeviceFrameHandler handler) {
        Objects.requireNonNull(handler, "handler");
        if (spec.delivery() == Delivery.LATEST && handler.consumesInKernel()) {
            throw new IllegalArgumentException("channel '" + channel + "' consumer " + device
                    + ": a device listener whose consumesInKernel() is true reads frames in place with no lapping check, "
                    + "which delivery LATEST cannot give; use delivery LOSSLESS for this channel, or a listener whose "
                    + "consumesInKernel() is false");
        }
    }

    /**
     * Where a new host listener's frames come from: the replica the producer pushes them into when the channel opened
     * with one for this consumer ({@link ChannelSpec#pushesToHost}), checked against the seat's lease on a port attached
     * from another process; else the host ring its stream stages them into.
     */
    private HostFrames hostFrames() {
        HostPush push = steps.hostPush;
        if (push != null) {
            PushedHostFrames pushed = new PushedHostFrames(deliveries, push);
            LeasedSeat l = leased;
            return l == null ? pushed : new LeasedHostFrames(pushed, l);
        }
        prepareHostRing();
        return new StagedHostFrames(deliveries);
    }

    /** A host listener reads the pinned host ring: allocated before any round can see the subscription. */
    private void prepareHostRing() {
        if (guard.enter()) {
            try {
                if (state() != ConsumerState.CLOSED) {
                    steps.hostRing();
                }
            } finally {
                guard.exit();
            }
        }
    }

    @Override
    public boolean subscribed() {
        return subscriptions.current().subscribed();
    }

    @Override
    public ConsumerPort retryPolicy(RetryPolicy policy) {
        subscriptions.retry(policy);
        return this;
    }

    @Override
    public ConsumerPort errorHandler(FrameErrorHandler handler) {
        subscriptions.errors(handler);
        return this;
    }

    @Override
    public ConsumerPort latencyRecorder(LongConsumer recorder) {
        latency.recorder(Objects.requireNonNull(recorder, "recorder"));
        return this;
    }

    /** The default dead-letter hook: logs the frame at ERROR; the consumer's dead-lettered counter counts it. */
    private void logDeadLetter(Frame frame, Exception cause) {
        log.atError().addKeyValue(LogKeys.CHANNEL, channel).addKeyValue(LogKeys.DEVICE, device)
                .addKeyValue(LogKeys.SEQUENCE, frame.sequence()).setCause(cause)
                .log("seqlink channel '{}' consumer {}: frame {} ({} B) failed {} deliveries and is dead-lettered", channel, device,
                        frame.sequence(), frame.length(), frame.attempt());
    }

    // ---- operator controls --------------------------------------------------------------------------------------

    @Override
    public boolean pause() {
        return life.pause();
    }

    @Override
    public boolean resume() {
        if (life.resume()) {
            stall.progress();
            seat.wakeLoop(); // a dozing loop armed no bell for a paused port
            return true;
        }
        return false;
    }

    // ---- positions ----------------------------------------------------------------------------------------------

    @Override
    public long acknowledged() {
        if (!guard.enter()) {
            return acknowledgedInside(); // closed: the frozen mirror
        }
        try {
            return acknowledgedInside();
        } finally {
            guard.exit();
        }
    }

    /**
     * The acknowledgement, never ahead of what the port counted handled (a listener that acknowledges in its kernel
     * acknowledges before the host counts the frame). The handled position is acquired first, so the counts a snapshot
     * reads after it cover every frame this reports acknowledged.
     */
    private long acknowledgedInside() {
        long handled = counters.getAcquire(PortCounters.C_HANDLED_TO);
        LeasedSeat l = leased;
        return Math.min(l != null ? l.acknowledged() : steps.mirrorWord(ConsumerBlock.CONSUMED_SEQ), handled);
    }

    @Override
    public long backlog() {
        return Math.max(0, producer.publishedCount() - acknowledged());
    }

    // ---- polling ------------------------------------------------------------------------------------------------

    @Override
    public int poll(int maxFrames) {
        if (!subscribed()) {
            throw new IllegalStateException("consumer " + device + " of channel '" + channel
                    + "' has no listener; subscribe one or call poll(handler, maxFrames)");
        }
        return pollAsUser(maxFrames);
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        seat.checkUserPoll();
        Subscription s = subscriptions.current();
        if (!s.subscribed() || s.delivery().listener() != handler) {
            subscribe(handler);
        }
        return pollAsUser(maxFrames);
    }

    private int pollAsUser(int maxFrames) {
        if (maxFrames < 1) {
            throw new IllegalArgumentException("maxFrames must be at least 1, was " + maxFrames);
        }
        seat.takeAsUser();
        try {
            return rounds.poll(maxFrames, Rounds.USER);
        } finally {
            seat.leave();
        }
    }

    // ---- the owning channel's -----------------------------------------------------------------------------------

    /** The launcher's hold on this port. */
    public PortDriver driver() {
        return driver;
    }

    /** The channel closed: {@code CLOSED}, unless the consumer died first; the armed round is released. Any thread. */
    public void stop() {
        life.stop();
    }

    /** Marks the consumer dead from outside (its device was lost). Any thread. */
    public void deviceLost(Throwable cause) {
        life.die(cause instanceof DeviceException d ? d
                : new DeviceException("CUDA_ERROR_UNKNOWN", "device", device, true, String.valueOf(cause.getMessage())));
    }

    /** Whether the producer waits for this consumer's acknowledgements. Any thread. */
    public boolean gates() {
        return life.gates();
    }

    /** The acknowledgement as the host mirror shows it, for the producer's gating (no handled clamp). The caller holds the channel's memory. */
    public long mirrorAcknowledged() {
        return steps.mirrorWord(ConsumerBlock.CONSUMED_SEQ);
    }

    /**
     * No listener is called from now on (a call in progress finishes; the rest of a round in delivery is not handed),
     * and the highest sequence ever handed to a listener, final from here: the channel's drain, once the consumer is
     * stopped, and an attached channel as it leaves {@code OPEN}. Any thread.
     */
    public long sealDeliveries() {
        return subscriptions.seal();
    }

    /** Whether {@code thread} delivers this port's frames (its listener thread, or a thread inside a poll). Any thread. */
    public boolean deliversOn(Thread thread) {
        return rounds.onListenerThread(thread) || seat.heldBy(thread);
    }

    /** Whether a listener may be inside a call for the port now. Any thread. */
    public boolean listenerInCall() {
        return rounds.withListenerThread() || seat.occupied() || subscriptions.current().calling();
    }

    /** The listener, as its {@code toString()} names it. Any thread. */
    public String listenerDescription() {
        return subscriptions.current().describe();
    }

    /** Keeps the mirror's words: the channel is about to free the mirror. The caller holds the channel's memory. */
    public void freeze() {
        steps.freeze();
    }

    /** Shuts the port's memory guard: once nobody is inside, the channel may free the port's memory. */
    public void shutMemory() {
        guard.shut();
    }

    /**
     * The watchdog's look: fails the consumer when its device steps report a broken rule ({@link ProtocolReports}),
     * else whether it is stalled now. The launcher's watchdog thread.
     */
    boolean checkStall(long nowNanos) {
        if (state() != ConsumerState.ACTIVE || !guard.enter()) {
            stall.clear();
            return false;
        }
        DeviceException broken;
        try {
            broken = ProtocolReports.failure(channel, device, steps.mirrorWord(ConsumerBlock.SHORT_ROUNDS),
                    steps.mirrorWord(ConsumerBlock.PROTOCOL_ERROR));
            if (broken == null) {
                return stall.check(nowNanos, acknowledgedInside(), producer.publishedOnDevice(), retrying(), counters);
            }
        } finally {
            guard.exit();
        }
        life.die(broken); // after the guard: the failure policy may fail the channel, which frees its memory
        stall.clear();
        return false;
    }

    /** The port's snapshot given the channel's {@code publish_seq} on the device. The caller holds the channel's memory. */
    public ConsumerSnapshot snapshot(long publishedOnDevice) {
        long ack = acknowledgedInside(); // acquires the handled position: the counts below cover it
        ConsumerState state = state(); // once: DEAD is final, and its failure was recorded before it
        Throwable f = state == ConsumerState.DEAD ? life.failure() : null;
        // the armed counters before the device's: the host counts an empty armed round after the step's mirror holds
        // it, so the ordinary count below is never short (at most one high while a landing is counted)
        long earlyWakes = counters.get(PortCounters.C_ARMED_EARLY_WAKES);
        long released = counters.get(PortCounters.C_ARMED_RELEASED);
        long ordinaryEmpty = Math.max(0, steps.mirrorWord(ConsumerBlock.EMPTY_POLLS) - earlyWakes - released);
        return new ConsumerSnapshot(device, transport, state, stalled(), retrying(), ack, Math.max(0, publishedOnDevice - ack),
                counters.get(PortCounters.C_DELIVERED), counters.get(PortCounters.C_MISSED), steps.mirrorWord(ConsumerBlock.LAPS),
                counters.get(PortCounters.C_ROUNDS), steps.mirrorWord(ConsumerBlock.READS), ordinaryEmpty, earlyWakes, released,
                counters.get(PortCounters.C_HOST_EMPTY), counters.get(PortCounters.C_RETRIES), counters.get(PortCounters.C_DEAD_LETTERED),
                counters.get(PortCounters.C_PADDING), counters.get(PortCounters.C_STALLS), counters.get(PortCounters.C_LAT_COUNT),
                counters.get(PortCounters.C_LAT_TOTAL), counters.get(PortCounters.C_LAT_MAX), steps.mirrorWord(ConsumerBlock.SHORT_ROUNDS),
                f == null ? null : f.getMessage());
    }

    @Override
    public ConsumerSnapshot snapshot() {
        if (!guard.enter()) {
            return snapshot(producer.publishedOnDevice());
        }
        try {
            return snapshot(producer.publishedOnDevice());
        } finally {
            guard.exit();
        }
    }

    @Override
    public String toString() {
        return "ConsumerPort[" + channel + "/" + device + ", " + transport + ", " + state() + "]";
    }
}
