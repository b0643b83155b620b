package io.seqlink.channel.consumer;

import io.seqlink.channel.ConsumerState;
import java.util.function.LongPredicate;
import org.jspecify.annotations.Nullable;

/**
 * The launcher's hold on one consumer port: while engaged, the launcher's device loop is the port's only poller and
 * every user {@code poll} is refused; what could hold the loop up (retries, a listener that blocked it once) runs on
 * the port's own listener thread.
 *
 * <table>
 * <caption>Threading contract</caption>
 * <tr><th>method</th><th>who calls it</th></tr>
 * <tr><td>{@link #engage}, {@link #disengage}, {@link #release}</td><td>the launcher (start, stop), any thread</td></tr>
 * <tr><td>{@link #poll}</td><td>the engaged device loop thread (any other gets 0)</td></tr>
 * <tr><td>{@link #inListener}, {@link #listenerCalls}, {@link #delegate}</td><td>the launcher's watchdog</td></tr>
 * <tr><td>{@link #checkStall}</td><td>the launcher's watchdog thread (the stall counter's one writer)</td></tr>
 * <tr><td>{@link #armWake}, {@link #disarmWake}</td><td>any thread (each one atomic step on the port's slot of the bell):
 *     the device loop arms as it dozes and disarms as it wakes, the launcher disarms as it removes the port</td></tr>
 * </table>
 */
public final class PortDriver {

    private final DefaultConsumerPort port;
    private final PollerSeat seat;
    private final Rounds rounds;
    private final Attempts attempts;
    private final LongPredicate stallCheck;
    /** The channel's publish bell; {@code null} when the producer is in another process (an attached channel). */
    private final @Nullable PublishBell bell;
    private final int bellSlot;

    /**
     * @param stallCheck the port's stall check at a given time: whether it is stalled now
     * @param bell       the channel's publish bell, of which {@code bellSlot} is the port's; {@code null} when no
     *                   publish in this process can ring it (its producer is in another process)
     */
    PortDriver(DefaultConsumerPort port, PollerSeat seat, Rounds rounds, Attempts attempts, LongPredicate stallCheck,
            @Nullable PublishBell bell, int bellSlot) {
        this.bell = bell;
        this.bellSlot = bellSlot;
        this.port = port;
        this.seat = seat;
        this.rounds = rounds;
        this.attempts = attempts;
        this.stallCheck = stallCheck;
    }

    /** The port this driver drives. */
    public DefaultConsumerPort port() {
        return port;
    }

    /** Makes {@code loop} the port's poller: user polls are refused from now on. Idempotent for the same loop. */
    public void engage(Thread loop) {
        seat.engage(loop);
    }

    /**
     * Gives the port back to users (the launcher stopped); its listener thread stops, waited for until
     * {@code deadlineNanos} (a listener still in a call then returns on its own).
     */
    public void disengage(long deadlineNanos) {
        seat.disengage();
        rounds.stopListenerThread(deadlineNanos);
    }

    /**
     * One round step, the listener inline unless a retry is due or it once held the loop up; the frames a finished
     * round handled. 0 from any thread but the engaged loop.
     */
    public int poll(int maxFrames) {
        if (!seat.takeAsLoop()) {
            return 0;
        }
        try {
            return rounds.poll(maxFrames, seat.delegated() ? Rounds.LOOP_DELEGATED : Rounds.LOOP);
        } finally {
            seat.leave();
        }
    }

    /** Whether the loop is inside this port's listener (or dead-letter hook) now, one it may hand over. */
    public boolean inListener() {
        return seat.loopDeliversInline() && attempts.attempt() > 0 && !rounds.withListenerThread();
    }

    /** Listener calls the port has made so far: a count that stands still while one call lasts. */
    public long listenerCalls() {
        return attempts.calls();
    }

    /** The port's listener held the loop up: its rounds go to its own thread until they are quick again. */
    public void delegate() {
        seat.delegate();
    }

    /** Stops the port's listener thread once its round is done (a closed port's), without waiting for it. */
    public void release() {
        rounds.stopListenerThread(System.nanoTime());
    }

    /** The watchdog's look at the port: whether it is stalled now. */
    public boolean checkStall(long nowNanos) {
        return stallCheck.test(nowNanos);
    }

    /**
     * The loop is about to doze (or doze on): while the port is active and has a listener, arms the channel's publish
     * bell with {@code waker}, so that the next publish runs it, and fences, so that a look at the port's
     * {@code backlog()} after this sees every publish that did not; otherwise empties the port's slot (a resume or a
     * new listener unparks the engaged loop instead). True when armed. Any thread; the device loop calls it as it
     * dozes.
     */
    public boolean armWake(Runnable waker) {
        PublishBell b = bell;
        if (b == null) {
            return false; // holdsLoopAwake keeps the loop from dozing while this port could take frames
        }
        if (port.subscribed() && port.state() == ConsumerState.ACTIVE) {
            b.arm(bellSlot, waker);
            return true;
        }
        b.disarm(bellSlot);
        return false;
    }

    /** The loop is awake, or no longer drives the port: publishes stop running its waker. Any thread. */
    public void disarmWake() {
        PublishBell b = bell;
        if (b != null) {
            b.disarm(bellSlot);
        }
    }

    /**
     * Whether the port's device loop must not doze: the port is active with a listener, and no publish in this process
     * would ring a bell for it (its producer is another process's). Any thread.
     */
    public boolean holdsLoopAwake() {
        return bell == null && port.subscribed() && port.state() == ConsumerState.ACTIVE;
    }

    @Override
    public String toString() {
        return "PortDriver[" + port + "]";
    }
}
