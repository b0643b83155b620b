package io.seqlink.channel;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.backend.Backend;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import io.seqlink.layout.SlotHeader;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer of a channel, on one device: its stream, its bound consume and ack steps, and the
 * round logic the launcher drives. One thread polls a port at a time (its device's launcher loop, or
 * the caller of {@link #poll(FrameHandler, int)}); counters are readable from anywhere.
 *
 * <p>A round: the host mirror of {@code publish_seq} says frames are there; the port enqueues the
 * consume step for them on its stream, then—for a host listener—a copy of their slots to pinned host
 * memory and a stream write of the round number; when that number lands, the listener runs on each
 * frame and the ack step is enqueued. A device listener instead enqueues its own work right after the
 * consume step, followed by the ack; nothing waits.
 *
 * <pre>
 *   consumer device                              host (pinned, mapped)
 *   +------------------+ +------------------+    +------------------+ +------------------------+
 *   | block: cursor +  | | local ring       |    | mirror of block  | | host ring (listeners   |
 *   | descriptor       | | (copy mode)      |    | + host_round     | | read frames here)      |
 *   +------------------+ +------------------+    +------------------+ +------------------------+
 *   push transports add a replica control block and ring (device: PEER_COPY; host: HOST_STAGED)
 * </pre>
 */
public final class ConsumerPort {

    private static final Logger log = LoggerFactory.getLogger(ConsumerPort.class);

    /** How long a round's completion is spun on before the port returns and checks again on its next poll. */
    private static final long LANDING_SPIN_NANOS = 50_000;
    /** How often a round that has not landed asks its stream for a failure. */
    private static final long PENDING_CHECK_NANOS = 1_000_000;

    /** Outcomes of delivering one frame. */
    private static final int HANDLED = 1;
    private static final int DEAD_LETTERED = 0;
    private static final int HALTED = -1;

    static final int C_DELIVERED = 0;
    static final int C_MISSED = 1;
    static final int C_ROUNDS = 2;
    static final int C_HOST_EMPTY = 3;
    static final int C_RETRIES = 4;
    static final int C_DEAD_LETTERED = 5;
    static final int C_STALLS = 6;
    static final int C_LAT_COUNT = 7;
    static final int C_LAT_TOTAL = 8;
    static final int C_LAT_MAX = 9;
    private static final int COUNTERS = 10;

    private final DefaultPublishChannel channel;
    private final int device;
    private final Transport transport;
    private final RingGeometry geometry;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Device consumerDevice;
    private final DeviceStream stream;
    private final DeviceBuffer block;
    private final MappedBuffer mirror;
    private final Memory frameRing;
    private final ConsumeKernel consumeKernel;
    private final AckKernel ackKernel;
    private final CounterSet counters = new CounterSet(COUNTERS);
    private final DeviceFramesView deviceFrames = new DeviceFramesView();

    // host delivery, set up on first need
    private MappedBuffer hostRing;
    private boolean stageToHost;
    private HostFrame[] hostFrames;
    private FrameList batchView;

    // listener wiring
    private FrameHandler frameHandler;
    private FrameBatchHandler batchHandler;
    private DeviceFrameHandler deviceHandler;
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private FrameErrorHandler errorHandler;
    private LongConsumer latencyRecorder;

    // round state: the polling thread only
    private long next = 1;
    private long round;
    private long pendingRound;
    private long pendingFrom;
    private long pendingCheckNanos;
    /** Whether the last {@link #deliverBatch()} was handled by the listener (else dead-lettered or halted). */
    private boolean batchDelivered;
    private long haltedUntilNanos;

    private volatile ConsumerState state = ConsumerState.ACTIVE;
    private volatile boolean stalled;
    private volatile Throwable failure;
    private volatile long lastProgressNanos = System.nanoTime();
    private volatile long lastSeenAck;
    /** The host mirror's words, kept when the channel frees the mirror; {@code null} while open. */
    private volatile long[] finalMirror;
    /** Keeps the channel's memory alive while this consumer's poller uses it. */
    private final MemoryGuard guard = new MemoryGuard();

    ConsumerPort(DefaultPublishChannel channel, Backend backend, int device, Transport transport,
            List<PublishBinding.PushTarget> pushTargets) {
        this.channel = channel;
        this.device = device;
        this.transport = Objects.requireNonNull(transport, "transport for consumer " + device);
        this.geometry = channel.geometry();
        this.errorHandler = new LoggingFrameErrorHandler();
        ChannelSpec spec = channel.spec();
        int producer = spec.producer();
        this.consumerDevice = backend.device(device);
        this.stream = track(consumerDevice.newStream(spec.name() + "-consumer-" + device));
        this.block = track(consumerDevice.allocate(ConsumerBlock.BYTES));
        this.mirror = track(consumerDevice.allocateMapped(ConsumerBlock.BYTES));

        Memory sourceControl;
        Memory sourceRing;
        switch (transport) {
            case PEER_ATOMIC -> {
                backend.enablePeerAccess(device, producer);
                sourceControl = channel.controlBlock();
                sourceRing = channel.ringBuffer();
            }
            case SAME_DEVICE -> {
                sourceControl = channel.controlBlock();
                sourceRing = channel.ringBuffer();
            }
            case PEER_COPY -> {
                backend.enablePeerAccess(producer, device);
                sourceControl = track(consumerDevice.allocate(ControlBlock.BYTES));
                sourceRing = track(consumerDevice.allocate(geometry.ringBytes()));
                pushTargets.add(new PublishBinding.PushTarget(sourceControl, sourceRing));
            }
            case HOST_STAGED -> {
                sourceControl = track(consumerDevice.allocateMapped(ControlBlock.BYTES));
                sourceRing = track(consumerDevice.allocateMapped(geometry.ringBytes()));
                pushTargets.add(new PublishBinding.PushTarget(sourceControl, sourceRing));
            }
            default -> throw new IllegalArgumentException("transport " + transport + " cannot serve consumer " + device);
        }
        Memory localRing = spec.readMode() == ReadMode.COPY ? track(consumerDevice.allocate(geometry.ringBytes())) : null;
        this.frameRing = localRing != null ? localRing : sourceRing;
        this.consumeKernel = stream.bindConsume(new ConsumeBinding(sourceControl, sourceRing, geometry,
                spec.maxPublishBatch(), localRing, block, mirror,
                spec.delivery() == Delivery.LATEST));
        this.ackKernel = stream.bindAck(new AckBinding(block, mirror));
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    List<AutoCloseable> resources() {
        return resources;
    }

    // ---- wiring -------------------------------------------------------------------------------

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
        return state;
    }

    public boolean stalled() {
        return stalled;
    }

    public @Nullable Throwable failure() {
        return failure;
    }

    /** The consumer's stream: a device listener's work goes here. */
    public DeviceStream stream() {
        return stream;
    }

    /** Subscribes a host listener called once per frame. Replaces any earlier listener. */
    public synchronized ConsumerPort subscribe(FrameHandler handler) {
        ensureHostDelivery();
        this.frameHandler = Objects.requireNonNull(handler, "handler");
        this.batchHandler = null;
        this.deviceHandler = null;
        return this;
    }

    /** Subscribes a host listener called once per round with its frames. Replaces any earlier listener. */
    public synchronized ConsumerPort subscribeBatches(FrameBatchHandler handler) {
        ensureHostDelivery();
        this.batchHandler = Objects.requireNonNull(handler, "handler");
        this.frameHandler = null;
        this.deviceHandler = null;
        return this;
    }

    /** Subscribes a device listener that enqueues work on each round's frames. Replaces any earlier listener. */
    public synchronized ConsumerPort subscribeDevice(DeviceFrameHandler handler) {
        this.deviceHandler = Objects.requireNonNull(handler, "handler");
        this.frameHandler = null;
        this.batchHandler = null;
        return this;
    }

    public boolean subscribed() {
        return frameHandler != null || batchHandler != null || deviceHandler != null;
    }

    public ConsumerPort retryPolicy(RetryPolicy policy) {
        this.retryPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** Where frames go after their last failed retry (default: logged at ERROR and counted). */
    public ConsumerPort errorHandler(FrameErrorHandler handler) {
        this.errorHandler = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /** Receives the publish-to-ack latency of every delivered frame, in nanoseconds (e.g. a timer). */
    public ConsumerPort latencyRecorder(LongConsumer recorder) {
        this.latencyRecorder = recorder;
        return this;
    }

    private void ensureHostDelivery() {
        if (hostRing != null) {
            return;
        }
        if (frameRing instanceof MappedBuffer mapped) {
            hostRing = mapped; // HOST_STAGED read in place: the frames are in host memory already
            stageToHost = false;
        } else {
            hostRing = track(consumerDevice.allocateMapped(geometry.ringBytes()));
            stageToHost = true;
        }
        hostFrames = new HostFrame[geometry.slots()];
        ByteBuffer all = hostRing.byteBuffer();
        for (int s = 0; s < hostFrames.length; s++) {
            int offset = (int) (s * geometry.stride());
            ByteBuffer payload = all.slice(offset + SlotHeader.BYTES, (int) geometry.slotBytes()).asReadOnlyBuffer()
                    .order(ByteOrder.LITTLE_ENDIAN);
            hostFrames[s] = new HostFrame(payload, offset);
        }
        batchView = new FrameList(channel.spec().maxPublishBatch() + geometry.slots());
    }

    // ---- operator controls --------------------------------------------------------------------

    /** Stops polling this consumer; lossless frames wait for it, latest frames lap it. */
    public void pause() {
        if (state == ConsumerState.ACTIVE) {
            state = ConsumerState.PAUSED;
        }
    }

    public void resume() {
        if (state == ConsumerState.PAUSED) {
            state = ConsumerState.ACTIVE;
            lastProgressNanos = System.nanoTime();
        }
    }

    void stop() {
        if (state != ConsumerState.DEAD) {
            state = ConsumerState.CLOSED;
        }
    }

    /** Whether the producer waits for this consumer's acknowledgements (lossless backpressure). */
    boolean gates() {
        return state != ConsumerState.DEAD || channel.spec().consumerFailurePolicy() == ConsumerFailurePolicy.KEEP_WAITING;
    }

    MemoryGuard guard() {
        return guard;
    }

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
        return mirrorWord(ConsumerBlock.CONSUMED_SEQ);
    }

    /**
     * Frames the producer has published (its publish enqueued, whether or not the device has run it
     * yet) that this consumer has not acknowledged. Unlike {@link ConsumerSnapshot#lag()}, which
     * counts from the device's {@code publish_seq}, this is what a drain must wait for.
     */
    public long backlog() {
        return Math.max(0, channel.publishedCount() - acknowledged());
    }

    /** A word of the host mirror, or its final value once the channel has freed the mirror. */
    private long mirrorWord(int offset) {
        long[] frozen = finalMirror;
        return frozen != null ? frozen[offset >>> 3] : mirror.getAcquire(offset); // callers hold a guard
    }

    /** Keeps the mirror's words: the channel is about to free the mirror. */
    void freeze() {
        if (finalMirror != null) {
            return;
        }
        long[] words = new long[ConsumerBlock.BYTES >>> 3];
        for (int i = 0; i < words.length; i++) {
            words[i] = mirror.getAcquire((long) i << 3);
        }
        finalMirror = words;
    }

    // ---- polling ------------------------------------------------------------------------------

    /**
     * One round with the subscribed listener, taking at most {@code maxFrames}. Returns the frames
     * handled (0 when there was nothing, the round is still in flight, or the consumer is not active).
     */
    public int poll(int maxFrames) {
        if (!subscribed()) {
            throw new IllegalStateException("consumer " + device + " of channel '" + channel.name()
                    + "' has no listener; subscribe one or call poll(handler, maxFrames)");
        }
        return pollRound(maxFrames);
    }

    /** One round delivering to {@code handler} (subscribing it), taking at most {@code maxFrames}. */
    public int poll(FrameHandler handler, int maxFrames) {
        if (frameHandler != handler) {
            subscribe(handler);
        }
        return pollRound(maxFrames);
    }

    private int pollRound(int maxFrames) {
        if (maxFrames < 1) {
            throw new IllegalArgumentException("maxFrames must be at least 1, was " + maxFrames);
        }
        if (state != ConsumerState.ACTIVE || !guard.enter()) {
            return 0;
        }
        try {
            if (pendingRound != 0) {
                if (landed()) {
                    return finishHostRound();
                }
                checkPendingStream();
                return 0;
            }
            if (haltedUntilNanos != 0) {
                if (System.nanoTime() - haltedUntilNanos < 0) {
                    return 0;
                }
                haltedUntilNanos = 0;
            }
            long published = channel.publishedOnDevice();
            if (published < next) {
                counters.increment(C_HOST_EMPTY);
                return 0;
            }
            long from = next;
            if (channel.spec().delivery() == Delivery.LATEST) {
                from = Sequences.lapStart(next, published, geometry.slots(), channel.spec().maxPublishBatch());
                if (from > next) {
                    counters.add(C_MISSED, from - next);
                    next = from;
                }
            }
            long to = Sequences.roundEnd(from, published, maxFrames);
            round++;
            counters.increment(C_ROUNDS);
            consumeKernel.enqueue(from, to, round);
            if (deviceHandler != null) {
                return deliverToDevice(from, to);
            }
            if (stageToHost) {
                copyRange(frameRing, hostRing, from, to);
            }
            stream.writeValue(mirror, ConsumerBlock.HOST_ROUND, round);
            pendingRound = round;
            pendingFrom = from;
            pendingCheckNanos = System.nanoTime() + PENDING_CHECK_NANOS;
            long spinUntil = System.nanoTime() + LANDING_SPIN_NANOS;
            do {
                if (landed()) {
                    return finishHostRound();
                }
                Thread.onSpinWait();
            } while (System.nanoTime() - spinUntil < 0);
            return 0;
        } catch (DeviceException ex) {
            die(ex);
            return 0;
        } finally {
            guard.exit();
        }
    }

    /**
     * A round that has not landed for a while: ask the stream whether its work failed. A fault on the
     * consumer's device would otherwise go unnoticed, since the word this port waits for never lands.
     */
    private void checkPendingStream() {
        long now = System.nanoTime();
        if (now - pendingCheckNanos >= 0) {
            pendingCheckNanos = now + PENDING_CHECK_NANOS;
            stream.completed(); // throws the stream's failure
        }
    }

    private boolean landed() {
        return mirror.getAcquire(ConsumerBlock.HOST_ROUND) >= pendingRound;
    }

    /** Copies the slots of {@code from..to} between rings on this consumer's stream, in at most two runs. */
    private void copyRange(Memory src, Memory dst, long from, long to) {
        int slots = geometry.slots();
        long count = Math.min(to - from + 1, slots);
        int first = geometry.slotOf(to - count + 1);
        long run = Math.min(count, slots - first);
        stream.copy(src, first * geometry.stride(), dst, first * geometry.stride(), run * geometry.stride());
        if (run < count) {
            stream.copy(src, 0, dst, 0, (count - run) * geometry.stride());
        }
    }

    private int deliverToDevice(long from, long to) {
        deviceFrames.first = from;
        deviceFrames.last = to;
        Exception last = null;
        for (int attempt = 1; attempt <= retryPolicy.maxAttempts(); attempt++) {
            if (attempt > 1) {
                counters.increment(C_RETRIES);
                LockSupport.parkNanos(retryPolicy.backoffNanos(attempt));
            }
            try {
                deviceHandler.onFrames(deviceFrames);
                last = null;
                break;
            } catch (DeviceException ex) {
                throw ex;
            } catch (Exception ex) {
                last = ex;
            }
        }
        if (last != null && !deadLetterDeviceRound(from, to, last)) {
            return 0; // halted: nothing acknowledged, the round comes again
        }
        ackKernel.enqueue(to);
        next = to + 1;
        long n = to - from + 1;
        if (last == null) { // dead-lettered frames count as dead-lettered, not delivered
            counters.add(C_DELIVERED, n);
        }
        recordLatency(to);
        markProgress();
        return (int) n;
    }

    /** A device listener gave up on a round: bring its frames to the host and hand each to the error handler. */
    private boolean deadLetterDeviceRound(long from, long to, Exception cause) {
        ensureHostDelivery();
        if (stageToHost) {
            copyRange(frameRing, hostRing, from, to);
        }
        stream.synchronize();
        for (long s = from; s <= to; s++) {
            HostFrame frame = hostFrame(s, retryPolicy.maxAttempts());
            try {
                errorHandler.onFailedFrame(frame, cause);
                counters.increment(C_DEAD_LETTERED);
            } catch (Exception ex) {
                halt(s, ex);
                return false;
            }
        }
        return true;
    }

    private int finishHostRound() {
        pendingRound = 0;
        long from = pendingFrom;
        long readyTo = mirror.getPlain(ConsumerBlock.READY_TO);
        long validFrom = Math.max(from, mirror.getPlain(ConsumerBlock.VALID_FROM));
        if (validFrom > from) {
            counters.add(C_MISSED, validFrom - from);
        }
        long handledTo = validFrom - 1;
        int taken = 0;     // handled or dead-lettered: the work this round did
        int delivered = 0; // handled by the listener
        if (batchHandler != null) {
            batchView.size = 0;
            for (long s = validFrom; s <= readyTo; s++) {
                HostFrame f = hostFrame(s, 1);
                if (f == null) {
                    counters.increment(C_MISSED);
                    continue;
                }
                batchView.frames[batchView.size++] = f;
            }
            long stop = deliverBatch();
            handledTo = stop < 0 ? readyTo : stop - 1;
            taken = (int) Math.max(0, handledTo - validFrom + 1);
            delivered = batchDelivered ? taken : 0;
        } else {
            for (long s = validFrom; s <= readyTo; s++) {
                HostFrame f = hostFrame(s, 1);
                if (f == null) {
                    counters.increment(C_MISSED);
                    handledTo = s;
                    continue;
                }
                int outcome = deliver(f);
                if (outcome == HALTED) {
                    break;
                }
                handledTo = s;
                taken++;
                if (outcome == HANDLED) {
                    delivered++;
                }
            }
            recordRoundLatency(validFrom, handledTo);
        }
        if (handledTo >= from) {
            ackKernel.enqueue(handledTo);
            markProgress();
        }
        next = handledTo + 1;
        counters.add(C_DELIVERED, delivered);
        return taken;
    }

    /** The host frame for {@code sequence}, or {@code null} when its staged stamp shows it was overwritten. */
    private HostFrame hostFrame(long sequence, int attempt) {
        HostFrame f = hostFrames[geometry.slotOf(sequence)];
        long stamp = hostRing.getPlain(f.slotOffset + SlotHeader.STAMP);
        if (stamp != sequence) {
            return null;
        }
        long length = hostRing.getPlain(f.slotOffset + SlotHeader.LENGTH);
        f.sequence = sequence;
        f.length = (int) Math.max(0, Math.min(length, geometry.slotBytes()));
        f.attempt = attempt;
        f.payload.clear().limit(f.length);
        return f;
    }

    /** Delivers one frame with retries; false when the consumer must halt at it. */
    private int deliver(HostFrame frame) {
        Exception last = null;
        for (int attempt = 1; attempt <= retryPolicy.maxAttempts(); attempt++) {
            if (attempt > 1) {
                counters.increment(C_RETRIES);
                LockSupport.parkNanos(retryPolicy.backoffNanos(attempt));
                frame.payload.clear().limit(frame.length);
            }
            frame.attempt = attempt;
            try {
                frameHandler.onFrame(frame);
                return HANDLED;
            } catch (Exception ex) {
                last = ex;
            }
        }
        try {
            frame.payload.clear().limit(frame.length);
            errorHandler.onFailedFrame(frame, last);
            counters.increment(C_DEAD_LETTERED);
            return DEAD_LETTERED;
        } catch (Exception ex) {
            halt(frame.sequence, ex);
            return HALTED;
        }
    }

    /** Delivers the batch with retries; returns -1 when all was handled, else the sequence to halt at. */
    private long deliverBatch() {
        batchDelivered = false;
        if (batchView.size == 0) {
            return -1;
        }
        Exception last = null;
        for (int attempt = 1; attempt <= retryPolicy.maxAttempts(); attempt++) {
            if (attempt > 1) {
                counters.increment(C_RETRIES);
                LockSupport.parkNanos(retryPolicy.backoffNanos(attempt));
            }
            for (int i = 0; i < batchView.size; i++) {
                HostFrame f = batchView.frames[i];
                f.attempt = attempt;
                f.payload.clear().limit(f.length);
            }
            try {
                batchHandler.onBatch(batchView);
                batchDelivered = true;
                long now = System.nanoTime();
                for (int i = 0; i < batchView.size; i++) {
                    recordLatency(batchView.frames[i].sequence, now);
                }
                return -1;
            } catch (Exception ex) {
                last = ex;
            }
        }
        for (int i = 0; i < batchView.size; i++) {
            HostFrame f = batchView.frames[i];
            try {
                f.payload.clear().limit(f.length);
                errorHandler.onFailedFrame(f, last);
                counters.increment(C_DEAD_LETTERED);
            } catch (Exception ex) {
                halt(f.sequence, ex);
                return f.sequence;
            }
        }
        return -1;
    }

    private void halt(long sequence, Exception cause) {
        haltedUntilNanos = System.nanoTime() + Math.max(1_000_000, retryPolicy.maxBackoff().toNanos());
        log.error("seqlink channel '{}' consumer {}: frame {} failed every retry and the error handler refused it; "
                + "the consumer holds at that frame and tries again: {}", channel.name(), device, sequence, cause.toString());
    }

    private void recordLatency(long sequence) {
        recordLatency(sequence, System.nanoTime());
    }

    /**
     * Publish-to-ack latency of the frames of a host round, with one clock read for the round: the ack
     * that follows covers them all. Frames the round skipped as overwritten (their staged stamp is not
     * their sequence; nothing rewrites the host ring until the next round) are not counted.
     */
    private void recordRoundLatency(long from, long to) {
        if (to < from) {
            return;
        }
        long now = System.nanoTime();
        LongConsumer r = latencyRecorder;
        long count = 0;
        long total = 0;
        long max = 0;
        for (long s = from; s <= to; s++) {
            long published = channel.publishNanos(s);
            if (published == 0 || hostRing.getPlain(hostFrames[geometry.slotOf(s)].slotOffset + SlotHeader.STAMP) != s) {
                continue;
            }
            long nanos = now - published;
            if (nanos < 0) {
                continue;
            }
            count++;
            total += nanos;
            max = Math.max(max, nanos);
            if (r != null) {
                r.accept(nanos);
            }
        }
        if (count > 0) { // the shared counters once per round, not once per frame
            counters.add(C_LAT_COUNT, count);
            counters.add(C_LAT_TOTAL, total);
            counters.max(C_LAT_MAX, max);
        }
    }

    private void recordLatency(long sequence, long nowNanos) {
        long published = channel.publishNanos(sequence);
        if (published == 0) {
            return;
        }
        long nanos = nowNanos - published;
        if (nanos < 0) {
            return;
        }
        counters.increment(C_LAT_COUNT);
        counters.add(C_LAT_TOTAL, nanos);
        counters.max(C_LAT_MAX, nanos);
        LongConsumer r = latencyRecorder;
        if (r != null) {
            r.accept(nanos);
        }
    }

    private void markProgress() {
        lastProgressNanos = System.nanoTime();
    }

    private void die(DeviceException cause) {
        if (state == ConsumerState.DEAD) {
            return;
        }
        failure = cause;
        state = ConsumerState.DEAD;
        log.error("seqlink channel '{}': consumer on device {} failed: {}", channel.name(), device, cause.getMessage());
        channel.consumerFailed(this, cause);
    }

    /** Marks the consumer dead from outside (its device was lost). */
    void deviceLost(Throwable cause) {
        if (state == ConsumerState.DEAD || state == ConsumerState.CLOSED) {
            return;
        }
        DeviceException ex = cause instanceof DeviceException d ? d
                : new DeviceException("CUDA_ERROR_UNKNOWN", "device", device, true, cause.getMessage());
        die(ex);
    }

    // ---- watchdog -----------------------------------------------------------------------------

    /**
     * Called by the stall watchdog: a consumer with frames published beyond its acknowledgement and
     * no acknowledgement for the stall timeout is stalled; it recovers when acknowledgements move.
     */
    public boolean checkStall(long nowNanos) {
        if (state != ConsumerState.ACTIVE || !channel.enterObserver()) {
            stalled = false;
            return false;
        }
        try {
            return checkStallInside(nowNanos);
        } finally {
            channel.exitObserver();
        }
    }

    private boolean checkStallInside(long nowNanos) {
        long ack = acked();
        if (ack != lastSeenAck) {
            lastSeenAck = ack;
            lastProgressNanos = nowNanos;
        }
        boolean waiting = channel.publishedOnDevice() > ack;
        boolean nowStalled = waiting && nowNanos - lastProgressNanos > channel.spec().stallTimeout().toNanos();
        if (nowStalled && !stalled) {
            counters.increment(C_STALLS);
            log.warn("seqlink channel '{}': consumer on device {} is stalled: {} frame(s) wait, no ack for {}", channel.name(),
                    device, channel.publishedOnDevice() - ack, channel.spec().stallTimeout());
        } else if (!nowStalled && stalled) {
            log.info("seqlink channel '{}': consumer on device {} recovered", channel.name(), device);
        }
        if (!waiting) {
            lastProgressNanos = nowNanos;
        }
        stalled = nowStalled;
        return nowStalled;
    }

    // ---- snapshot -----------------------------------------------------------------------------

    ConsumerSnapshot snapshot(long publishedOnDevice) {
        long ack = acked();
        Throwable f = failure;
        return new ConsumerSnapshot(device, transport, state, stalled, ack, Math.max(0, publishedOnDevice - ack),
                counters.get(C_DELIVERED), counters.get(C_MISSED), mirrorWord(ConsumerBlock.LAPS),
                counters.get(C_ROUNDS), mirrorWord(ConsumerBlock.READS), mirrorWord(ConsumerBlock.EMPTY_POLLS),
                counters.get(C_HOST_EMPTY), counters.get(C_RETRIES), counters.get(C_DEAD_LETTERED), counters.get(C_STALLS),
                counters.get(C_LAT_COUNT), counters.get(C_LAT_TOTAL), counters.get(C_LAT_MAX), f == null ? null : f.getMessage());
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
        return "ConsumerPort[" + channel.name() + "/" + device + ", " + transport + ", " + state + "]";
    }

    // ---- flyweights ---------------------------------------------------------------------------

    private final class HostFrame implements Frame {
        final ByteBuffer payload;
        final long slotOffset;
        long sequence;
        int length;
        int attempt;

        HostFrame(ByteBuffer payload, long slotOffset) {
            this.payload = payload;
            this.slotOffset = slotOffset;
        }

        @Override
        public String channel() {
            return channel.name();
        }

        @Override
        public int consumerDevice() {
            return device;
        }

        @Override
        public long sequence() {
            return sequence;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public ByteBuffer payload() {
            return payload;
        }

        @Override
        public int attempt() {
            return attempt;
        }

        @Override
        public String toString() {
            return "Frame[" + channel.name() + "#" + sequence + ", " + length + " B, consumer " + device + "]";
        }
    }

    private static final class FrameList extends AbstractList<Frame> {
        final HostFrame[] frames;
        int size;

        FrameList(int capacity) {
            this.frames = (HostFrame[]) java.lang.reflect.Array.newInstance(HostFrame.class, capacity);
        }

        @Override
        public Frame get(int index) {
            if (index < 0 || index >= size) {
                throw new IndexOutOfBoundsException("index " + index + " outside a batch of " + size);
            }
            return frames[index];
        }

        @Override
        public int size() {
            return size;
        }
    }

    private final class DeviceFramesView implements DeviceFrames {
        long first;
        long last;

        @Override
        public String channel() {
            return channel.name();
        }

        @Override
        public int consumerDevice() {
            return device;
        }

        @Override
        public long first() {
            return first;
        }

        @Override
        public long last() {
            return last;
        }

        @Override
        public Memory memory() {
            return frameRing;
        }

        @Override
        public long payloadOffset(long sequence) {
            return geometry.payloadOffsetOf(sequence);
        }

        @Override
        public long headerOffset(long sequence) {
            return geometry.offsetOf(sequence);
        }

        @Override
        public Memory descriptor() {
            return block;
        }

        @Override
        public DeviceStream stream() {
            return stream;
        }
    }

    /** The default dead-letter hook: logs the frame at ERROR; the consumer's dead-lettered counter counts it. */
    private final class LoggingFrameErrorHandler implements FrameErrorHandler {
        @Override
        public void onFailedFrame(Frame frame, Exception cause) {
            log.error("seqlink channel '{}' consumer {}: frame {} ({} B) failed {} deliveries and is dead-lettered", channel.name(),
                    device, frame.sequence(), frame.length(), retryPolicy.maxAttempts(), cause);
        }
    }
}
