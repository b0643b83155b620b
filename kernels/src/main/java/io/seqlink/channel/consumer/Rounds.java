package io.seqlink.channel.consumer;

import io.seqlink.backend.DeviceException;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.memory.MemoryGuard;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import org.jspecify.annotations.Nullable;

/**
 * The rounds of one port, owned by its poller (the launcher's device loop, or the one user thread calling
 * {@code poll}): when a round starts and over which frames, whether it is armed ahead of its frame, when it has
 * landed, and who delivers it. What a round's steps are and how its frames reach the listener is the subscription's
 * {@link ListenerDelivery}; this class never asks which kind of listener it serves.
 *
 * <pre>
 *   IDLE ──frames published──> launch: the delivery's steps ──(device: deliverable at once)──────────────┐
 *    |                              └──(host: LAUNCHED ──landed──> land: what it took)─────────────────┤
 *    |──caught up, the delivery arms: wait(doorbell) + arm: its steps ──> LAUNCHED ──landed──> land ──┤  EMPTY: IDLE
 *    |                                                          (COMPLETE: delivered on the device)────┤
 *    ^                                                                                                 v
 *    └── next = handled + 1 <── deliver (inline; at a retry it may not wait, or delegated: ──> WITH_LISTENER ──> DONE)
 * </pre>
 *
 * <p>One round is in flight at a time: the next starts only after the last was delivered and its ack enqueued, so the
 * host ring slots a listener reads are never restaged under it, and while a round is with the listener thread the
 * poller keeps off the port's stream (stream order stays consume, the listener's work, ack). An armed round holds a
 * stream wait ({@link ArmedRound}); whoever takes the port out of {@code ACTIVE} or changes its subscription
 * {@linkplain #releaseArmed() releases} it, and the poller itself after the stall timeout.
 */
final class Rounds {

    /** A user's poll: the listener runs on the caller, backoffs included. */
    static final int USER = 0;
    /** The device loop: the listener runs inline; a retry due hands the round to the port's listener thread. */
    static final int LOOP = 1;
    /** The device loop with a listener that once held it up: every round goes to the port's listener thread. */
    static final int LOOP_DELEGATED = 2;

    /** How long a host round's landing is spun on before the poller returns and looks again on its next pass. */
    private static final long LANDING_SPIN_NANOS = 50_000;
    /** How often a round that has not landed asks its stream for a failure. */
    private static final long PENDING_CHECK_NANOS = 1_000_000;

    private final String listenerThreadName;
    private final ConsumerSteps steps;
    private final Subscriptions subscriptions;
    private final Attempts attempts;
    private final ConsumerLife life;
    private final ProducerView producer;
    private final CounterSet counters;
    private final StallWatch stall;
    private final PollerSeat seat;
    private final MemoryGuard guard;
    private final @Nullable ArmedRound armed;
    /** The seat of a port attached from another process, which each step forwards the device's acknowledgement into. */
    private final @Nullable LeasedSeat leased;
    private final RingGeometry geometry;
    private final boolean lapping;
    private final int maxBatch;
    private final Round round = new Round();
    private volatile @Nullable PortListenerThread listenerThread;

    /** The next frame to deliver: the one after what the port's mirror showed acknowledged as it was made. */
    private long next;
    private long number;
    private long pendingCheckNanos;

    Rounds(String listenerThreadName, ConsumerSteps steps, Subscriptions subscriptions, Attempts attempts, ConsumerLife life,
            ProducerView producer, CounterSet counters, StallWatch stall, PollerSeat seat, MemoryGuard guard,
            @Nullable ArmedRound armed, @Nullable LeasedSeat leased, RingGeometry geometry, boolean lapping, int maxBatch,
            long startAfter) {
        this.listenerThreadName = listenerThreadName;
        this.next = startAfter + 1;
        this.steps = steps;
        this.subscriptions = subscriptions;
        this.attempts = attempts;
        this.life = life;
        this.producer = producer;
        this.counters = counters;
        this.stall = stall;
        this.seat = seat;
        this.guard = guard;
        this.armed = armed;
        this.leased = leased;
        this.geometry = geometry;
        this.lapping = lapping;
        this.maxBatch = maxBatch;
    }

    /** Releases the armed round, if any: it lands empty unless its frame came first. Any thread. */
    void releaseArmed() {
        if (armed != null) {
            armed.cancel();
        }
    }

    /**
     * The poller's step, inside the port's memory guard: nothing once the consumer is closed or dead, and a device
     * error kills the consumer. The caller holds the port's poller seat.
     */
    int poll(int maxFrames, int mode) {
        ConsumerState s = life.state();
        if (s == ConsumerState.CLOSED || s == ConsumerState.DEAD || !guard.enter()) {
            return 0;
        }
        try {
            return step(maxFrames, mode);
        } catch (DeviceException ex) {
            life.die(ex);
            return 0;
        } finally {
            guard.exit();
        }
    }

    /**
     * One step: finishes a round the listener thread delivered, forwards what the device acknowledged into an attached
     * port's seat ({@link LeasedSeat#forward}: only while no round is with the listener thread, so one thread at a time
     * stores into the seat), then follows the round in flight or starts the next, delivering as {@code mode} says.
     * Returns the frames a finished round handled.
     *
     * @throws DeviceException a device error
     */
    private int step(int maxFrames, int mode) {
        int handled = 0;
        int status = round.status();
        if (status == Round.DONE) {
            handled = finish();
            status = Round.IDLE;
        } else if (status == Round.WITH_LISTENER) {
            return 0;
        }
        if (leased != null) {
            leased.forward();
        }
        if (!life.active()) {
            return handled;
        }
        try {
            return handled + (status == Round.LAUNCHED ? follow(mode) : start(maxFrames, mode));
        } catch (DeviceException ex) {
            round.status(Round.IDLE);
            throw ex;
        }
    }

    private int start(int maxFrames, int mode) {
        if (!attempts.mayStart()) {
            return 0; // holding at a frame the error handler refused
        }
        Subscription sub = subscriptions.current();
        if (!sub.subscribed()) {
            return 0;
        }
        ListenerDelivery delivery = sub.delivery();
        long published = delivery.published(producer);
        if (published < next) {
            if (armed != null && delivery.arms(mode == LOOP_DELEGATED) && armed.mayArm(next)) {
                arm(sub, delivery);
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
        round.begin(++number, from, Sequences.roundEnd(from, published, maxFrames), false, sub);
        counters.increment(PortCounters.C_ROUNDS);
        if (delivery.launch(round)) {
            return deliver(mode);
        }
        round.status(Round.LAUNCHED);
        long now = System.nanoTime();
        pendingCheckNanos = now + PENDING_CHECK_NANOS;
        long spinUntil = now + LANDING_SPIN_NANOS;
        do {
            if (delivery.landed(round)) {
                return landed(mode);
            }
            Thread.onSpinWait();
        } while (System.nanoTime() - spinUntil < 0);
        return 0;
    }

    /**
     * Arms frame {@code next} (caught up, not yet seen published): the wait on its doorbell, then the delivery's steps.
     * A pause, close, death or subscription change that raced the arm is caught by the checks after it (each of those
     * sets its state, then releases what is armed: Dekker's argument), and a listener that refused it releases it.
     */
    private void arm(Subscription sub, ListenerDelivery delivery) {
        ArmedRound a = armed;
        if (a == null) {
            return;
        }
        round.begin(++number, next, next, true, sub);
        counters.increment(PortCounters.C_ROUNDS);
        pendingCheckNanos = System.nanoTime() + PENDING_CHECK_NANOS;
        a.arm(next, number);
        round.status(Round.LAUNCHED);
        boolean keep = delivery.arm(round);
        if (!keep || !life.active() || subscriptions.current() != sub) {
            a.cancel();
        }
    }

    private int follow(int mode) {
        ListenerDelivery delivery = round.delivery();
        if (!delivery.landed(round)) {
            if (round.armed && armed != null) {
                armed.waiting();
            }
            checkPendingStream();
            return 0;
        }
        return landed(mode);
    }

    /** The round's steps reached the host: its delivery judges what it took. */
    private int landed(int mode) {
        boolean released = round.armed && armed != null && armed.landed();
        int outcome = round.delivery().land(round, released);
        if (outcome == ListenerDelivery.DELIVER) {
            return deliver(mode);
        }
        if (outcome == ListenerDelivery.EMPTY) {
            round.result = round.from - 1;
        }
        return finish();
    }

    /** Delivers the round here, or hands it (what is left of it, after a retry due here) to the port's listener thread. */
    private int deliver(int mode) {
        if (mode != LOOP_DELEGATED) {
            long handled = round.delivery().deliver(round, mode == USER);
            if (handled != ListenerDelivery.RESUME_ELSEWHERE) {
                round.result = handled;
                return finish();
            }
            round.resuming = true;
        }
        round.status(Round.WITH_LISTENER);
        listenerThread().wake();
        return 0;
    }

    /** Applies what the deliverer did (its ack is enqueued): the next sequence and the stall clock. */
    private int finish() {
        round.status(Round.IDLE);
        long handled = round.result;
        if (handled >= round.from) {
            next = Math.max(next, handled + 1);
            stall.progress();
        }
        return round.handled();
    }

    /**
     * A round that has not landed for a while: ask the stream whether its work failed. A fault on the consumer's
     * device would otherwise go unnoticed, since the word this port waits for never lands.
     */
    private void checkPendingStream() {
        long now = System.nanoTime();
        if (now - pendingCheckNanos >= 0) {
            pendingCheckNanos = now + PENDING_CHECK_NANOS;
            steps.stream.completed(); // throws the stream's failure
        }
    }

    // ---- the listener thread and what others may ask ------------------------------------------------------

    /** The port's listener thread, started on first need by the poller. */
    private PortListenerThread listenerThread() {
        PortListenerThread t = listenerThread;
        if (t == null) {
            t = new PortListenerThread(listenerThreadName, round, seat, guard, life::die);
            listenerThread = t;
            t.start();
        }
        return t;
    }

    /** Stops the listener thread, waiting for it until {@code deadlineNanos}; true when it ended (or there was none). */
    boolean stopListenerThread(long deadlineNanos) {
        PortListenerThread t = listenerThread;
        if (t == null) {
            return true;
        }
        boolean ended = t.stop(deadlineNanos);
        if (ended) {
            listenerThread = null;
        }
        return ended;
    }

    /** Whether {@code thread} is the port's listener thread. Any thread. */
    boolean onListenerThread(Thread thread) {
        PortListenerThread t = listenerThread;
        return t != null && t.thread() == thread;
    }

    /** Whether the round in flight is with the listener thread (a listener may be inside a call there). Any thread. */
    boolean withListenerThread() {
        return round.status() == Round.WITH_LISTENER;
    }
}
