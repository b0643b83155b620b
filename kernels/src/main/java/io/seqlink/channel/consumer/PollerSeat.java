package io.seqlink.channel.consumer;

import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Who polls one port: exactly one thread at a time. Before the launcher engages the port, a user thread polls it and
 * its listener runs on that thread; once engaged, only the engaged device loop polls, and runs the listener inline
 * unless the port is {@linkplain #delegate() delegated} (its listener held the loop up: every round goes to the
 * port's listener thread until its rounds have been quick for a while). Every other poll fails at once with an
 * exception that names the rule and the thread in the way.
 *
 * <pre>
 *   poller: null ──CAS──> the polling thread ──(step done)──> null      (one compare-and-set per round step)
 *   engagedLoop: null (users poll) | the device loop (users are refused; a new loop thread may replace it)
 * </pre>
 *
 * <p>Every method is safe from any thread.
 */
final class PollerSeat {

    private final String channel;
    private final int device;
    /** The thread inside a poll now (user or device loop), or {@code null}. */
    private final AtomicReference<@Nullable Thread> poller = new AtomicReference<>();
    /** The device loop driving the port, or {@code null} while users may poll it. */
    private volatile @Nullable Thread engagedLoop;
    private volatile boolean delegated;

    PollerSeat(String channel, int device) {
        this.channel = channel;
        this.device = device;
    }

    /** Takes the seat for a user's poll; pair with {@link #leave()}. */
    void takeAsUser() {
        checkUserPoll();
        Thread me = Thread.currentThread();
        Thread other = poller.compareAndExchange(null, me);
        if (other != null) {
            throw new IllegalStateException(other == me
                    ? "poll: consumer " + device + " of channel '" + channel + "' is polled from inside its own listener; a listener "
                    + "must not poll its own port"
                    : "poll: one thread at a time polls a port, and thread '" + other.getName() + "' is polling consumer " + device
                    + " of channel '" + channel + "'; poll each port from one thread");
        }
        try {
            checkUserPoll(); // the launcher may have engaged in between: it skipped us this pass, we refuse from now on
        } catch (IllegalStateException ex) {
            poller.set(null);
            throw ex;
        }
    }

    /**
     * Takes the seat for the engaged device loop's step; false for any other thread (a loop thread replaced while a
     * listener held it up), or while a user poll that began before the launcher engaged is finishing.
     */
    boolean takeAsLoop() {
        Thread me = Thread.currentThread();
        return me == engagedLoop && poller.compareAndSet(null, me);
    }

    void leave() {
        poller.set(null);
    }

    void checkUserPoll() {
        Thread loop = engagedLoop;
        if (loop != null) {
            throw new IllegalStateException("poll: consumer " + device + " of channel '" + channel + "' is polled by the seqlink "
                    + "launcher (thread '" + loop.getName() + "': its runtime is started), and a port has one poller; subscribe a "
                    + "listener instead, or poll only ports of a runtime that is not started");
        }
    }

    /** Whether the engaged loop is inside a step of this port now, delivering inline (not delegated). */
    boolean loopDeliversInline() {
        Thread loop = engagedLoop;
        return !delegated && loop != null && poller.get() == loop;
    }

    /** Whether some thread is inside a step of this port now. */
    boolean occupied() {
        return poller.get() != null;
    }

    /** Whether {@code thread} is inside a step of this port now. */
    boolean heldBy(Thread thread) {
        return poller.get() == thread;
    }

    /** The port's listener held its device loop up: every round goes to its own thread until they are quick again. */
    void delegate() {
        delegated = true;
    }

    /** Its listener has been quick again for a while: the loop delivers it inline from the next round. */
    void undelegate() {
        delegated = false;
    }

    boolean delegated() {
        return delegated;
    }

    @Nullable Thread engagedLoop() {
        return engagedLoop;
    }

    /**
     * Unparks the engaged loop (if any), so that it looks at the port again: the port became one the loop serves
     * (resumed, or a listener subscribed) while the loop may doze without having armed its bell. Any thread.
     */
    void wakeLoop() {
        Thread loop = engagedLoop;
        if (loop != null) {
            LockSupport.unpark(loop);
        }
    }

    void engage(Thread loop) {
        engagedLoop = Objects.requireNonNull(loop, "loop");
    }

    void disengage() {
        engagedLoop = null;
    }
}
