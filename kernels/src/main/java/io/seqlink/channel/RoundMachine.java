package io.seqlink.channel;

import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import org.jspecify.annotations.Nullable;

/**
 * The round state machine of one port, owned by its poller (the launcher's device loop, or the one
 * user thread calling {@code poll}): it decides when a round starts, launches the consume step, stages
 * a host round's frames and watches them land, delivers them (or hands them to the port's listener
 * thread) and acknowledges what was handled. The device loop never waits in it: a failed attempt, and
 * every round of a listener that once held the loop up, goes to the listener thread.
 *
 * <pre>
 *   IDLE ──mirror moved──> consume step [+ copy to host, write host_round] ──> STAGED ──host_round landed──┐
 *    |                     (device listener: straight to READY)                  ^                         v
 *    |──caught up (host listener): ARM next: wait(doorbell) + the same steps ────┘  (landed empty: IDLE) READY
 *    |──caught up (device listener that accepts it): ARM next: wait + consume + listener + ack_ready ──> STAGED
 *    |       ──round landed──> took it: counted, next + 1 (acknowledged on the device) | took nothing: IDLE
 *    ^                                                                                                     |
 *    └──── next = handled + 1 <── DONE <── listener (+ retries, dead letters), ack step <──────────────────┘
 * </pre>
 *
 * <p>A device listener that {@linkplain DeviceFrameHandler#consumesInKernel consumes in its kernel} gets no consume
 * step and no ack step: its one kernel is the round ({@link Round#consumedInKernel}); the channel puts its consume step
 * back only where that kernel is missing (a failed armed call, a dead letter).
 *
 * <p>An armed round ({@link ArmedRound}, enqueued by {@link RoundArming}) is a STAGED round of one frame
 * enqueued before the frame was published: its consume step waits on the stream for the frame's doorbell
 * and keeps its own acquire read, so a round released by a cancel lands empty and delivers nothing (a
 * device listener's kernels and the ack read the descriptor the consume step wrote and do nothing either).
 *
 * <p>One round is in flight at a time: the next is launched only after the last was acknowledged, so
 * the host ring slots a listener reads are never restaged under it. A round the listener has not
 * finished keeps the port's poller out of its stream: the listener's own device work goes between the
 * consume step and the ack.
 */
final class RoundMachine {

    /** How long a round's landing is spun on before the poller returns and looks again on its next pass. */
    private static final long LANDING_SPIN_NANOS = 50_000;
    /** How often a round that has not landed asks its stream for a failure. */
    private static final long PENDING_CHECK_NANOS = 1_000_000;

    private final ConsumerPort port;
    private final DefaultPublishChannel channel;
    private final ConsumerTransport transport;
    private final RingGeometry geometry;
    private final CounterSet counters;
    private final FrameDelivery delivery;
    private final @Nullable ArmedRound armed;
    private final @Nullable RoundArming arming;
    private final Round round = new Round();
    private final boolean lapping;
    private final int maxBatch;

    private long next = 1;
    private long number;
    private long pendingCheckNanos;
    private long holdUntilNanos;
    /** Whether the port holds at a frame its error handler refused (readable from any thread). */
    private volatile boolean holding;

    RoundMachine(ConsumerPort port, DefaultPublishChannel channel, ConsumerTransport transport, CounterSet counters,
            FrameDelivery delivery) {
        this.port = port;
        this.channel = channel;
        this.transport = transport;
        this.geometry = channel.geometry();
        this.counters = counters;
        this.delivery = delivery;
        this.lapping = channel.spec().delivery() == Delivery.LATEST;
        this.maxBatch = channel.spec().maxPublishBatch();
        this.armed = ArmedRound.of(channel.doorbells(), transport.mirror, transport.stream, channel.spec().stallTimeout().toNanos());
        this.arming = RoundArming.of(port, transport, counters, delivery, armed);
    }

    /** Releases the armed round, if any (close, pause, the consumer's death): it lands empty unless its frame came. Any thread. */
    void cancelArmed() {
        if (armed != null) {
            armed.cancel();
        }
    }

    /** Whether the round in flight is armed (its frame not yet seen published when it was enqueued). */
    private boolean armedInFlight() {
        return armed != null && armed.armed() != 0;
    }

    Round round() {
        return round;
    }

    boolean holding() {
        return holding;
    }

    /** A user's poll: the listener runs on the caller, backoffs included. */
    static final int USER = 0;
    /** The device loop: the listener runs inline; a failure hands the round to the port's listener thread. */
    static final int LOOP = 1;
    /** The device loop with a listener that once held it up: every round goes to the port's listener thread. */
    static final int LOOP_DELEGATED = 2;

    /**
     * One step: acknowledges a round its listener thread finished, then starts or follows the next,
     * delivering as {@code mode} says. Returns the frames a finished round took. The caller is the
     * poller, inside the port's memory guard.
     */
    int step(int maxFrames, int mode) {
        int taken = 0;
        int status = round.status();
        if (status == Round.DONE) {
            taken = acknowledge();
            status = Round.IDLE;
        } else if (status == Round.READY) {
            return 0; // the listener thread has it
        }
        if (!port.active()) {
            return taken;
        }
        if (status == Round.STAGED) {
            if (armedInFlight() ? !arming.landed(round) : !transport.hostRoundLanded(round.number)) {
                if (armedInFlight()) {
                    armed.waiting();
                }
                checkPendingStream();
                return taken;
            }
            return taken + landed(mode);
        }
        return taken + start(maxFrames, mode);
    }

    private int start(int maxFrames, int mode) {
        if (holdUntilNanos != 0) {
            if (System.nanoTime() - holdUntilNanos < 0) {
                return 0;
            }
            holdUntilNanos = 0;
            holding = false;
        }
        Subscription sub = port.subscription();
        if (!sub.subscribed()) {
            return 0;
        }
        long published = channel.publishedOnDevice();
        if (published < next) {
            if (arming != null && arming.mayArm(sub, next, mode == LOOP_DELEGATED)) {
                arm(sub);
            } else {
                counters.increment(PortCounters.C_HOST_EMPTY);
            }
            return 0;
        }
        long from = next;
        if (lapping) {
            from = Sequences.lapStart(next, published, geometry.slots(), maxBatch);
            if (from > next) {
                counters.add(PortCounters.C_MISSED, from - next);
                next = from;
            }
        }
        long to = Sequences.roundEnd(from, published, maxFrames);
        number++;
        counters.increment(PortCounters.C_ROUNDS);
        round.begin(number, from, to, sub);
        if (arming != null) {
            arming.resumeFailed(round); // a device listener that failed on this frame armed: its retry, that frame alone
            to = round.to;
        }
        if (!round.consumedInKernel) { // else the listener's one kernel is the round
            transport.consume.enqueue(from, to, number);
        }
        if (sub.kind == Subscription.Kind.DEVICE) {
            return handOff(mode);
        }
        transport.stageToHost(transport.hostRing(), from, to);
        transport.signalHostRound(number);
        round.status(Round.STAGED);
        long now = System.nanoTime();
        pendingCheckNanos = now + PENDING_CHECK_NANOS;
        long spinUntil = now + LANDING_SPIN_NANOS;
        do {
            if (transport.hostRoundLanded(number)) {
                return landed(mode);
            }
            Thread.onSpinWait();
        } while (System.nanoTime() - spinUntil < 0);
        return 0;
    }

    /** Arms frame {@code next} (caught up): {@link RoundArming#arm}. */
    private void arm(Subscription sub) {
        number++;
        counters.increment(PortCounters.C_ROUNDS);
        round.begin(number, next, next, sub);
        pendingCheckNanos = System.nanoTime() + PENDING_CHECK_NANOS;
        arming.arm(round);
    }

    /** The host round reached host memory: the consume step's descriptor says which frames are valid. */
    private int landed(int mode) {
        long readyTo = transport.mirrorWord(ConsumerBlock.READY_TO);
        if (armedInFlight()) {
            if (arming.landedEmpty(round, readyTo)) {
                round.status(Round.IDLE);
                return 0;
            }
            if (round.subscription.kind == Subscription.Kind.DEVICE) {
                return acknowledge(); // its listener's work and ack are on the stream, after the consume step
            }
        }
        long validFrom = Math.max(round.from, transport.mirrorWord(ConsumerBlock.VALID_FROM));
        if (validFrom > round.from) {
            counters.add(PortCounters.C_MISSED, validFrom - round.from);
        }
        round.to = readyTo;
        round.validFrom = validFrom;
        round.handledTo = validFrom - 1;
        return handOff(mode);
    }

    /** Delivers the round here, or hands it (or, after a failure here, the rest of it) to the port's listener thread. */
    private int handOff(int mode) {
        if (mode != LOOP_DELEGATED) {
            deliver(round, mode == USER);
            if (!round.needsRetry) {
                return acknowledge();
            }
        }
        round.status(Round.READY);
        port.seat().listenerThread().wake();
        return 0;
    }

    /**
     * Delivers a round (the rest of it, when it resumes) and enqueues its ack step at once, on the
     * delivering thread (none when the device listener's own kernels acknowledge it): the producer's
     * backpressure waits for that ack, not for the poller's next look.
     * While the round is with the listener thread the poller keeps off this port's stream, so stream
     * order stays consume, listener work, ack.
     */
    void deliver(Round r, boolean mayWait) {
        delivery.deliver(r, mayWait);
        if (!r.needsRetry && r.deviceFailure == null && r.handledTo >= r.from) {
            try {
                if (!r.acknowledgedInKernel) { // else the listener's last kernel acknowledges the round
                    transport.ack.enqueue(r.handledTo);
                }
                port.markProgress();
            } catch (io.seqlink.backend.DeviceException ex) {
                r.deviceFailure = ex;
            }
        }
    }

    /** Applies what the deliverer did (its ack is enqueued): the next sequence, counters, a hold, or the consumer's death. */
    private int acknowledge() {
        Round r = round;
        r.status(Round.IDLE);
        if (r.deviceFailure != null) {
            port.die(r.deviceFailure);
            return 0;
        }
        next = Math.max(next, r.handledTo + 1);
        counters.add(PortCounters.C_DELIVERED, r.delivered);
        if (r.missed > 0) {
            counters.add(PortCounters.C_MISSED, r.missed);
        }
        if (r.holdNanos != 0) {
            holdUntilNanos = System.nanoTime() + r.holdNanos;
            holding = true;
        }
        return r.taken;
    }

    /**
     * A round that has not landed for a while: ask the stream whether its work failed. A fault on the
     * consumer's device would otherwise go unnoticed, since the word this port waits for never lands.
     */
    private void checkPendingStream() {
        long now = System.nanoTime();
        if (now - pendingCheckNanos >= 0) {
            pendingCheckNanos = now + PENDING_CHECK_NANOS;
            transport.stream.completed(); // throws the stream's failure
        }
    }
}
