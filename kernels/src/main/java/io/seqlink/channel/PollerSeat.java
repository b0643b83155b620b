package io.seqlink.channel;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Who polls one port: exactly one thread at a time. Before the launcher engages the port, a user
 * thread polls it and its listener runs on that thread; once engaged, only the engaged device loop
 * polls. The loop runs the listener inline, except what must not hold it up: the rest of a round after
 * a failed attempt, and every round of a listener that held the loop up (it is then
 * {@link #delegate() delegated}, until its rounds have been quick for a while), go to the port's own
 * {@link DeliveryWorker} thread. Every other poll
 * fails at once with an exception that names the rule and the thread in the way.
 *
 * <pre>
 *   poller: null ──CAS──> the polling thread ──(step done)──> null      (one compare-and-set per round step)
 *   engagedLoop: null (users poll) | the device loop (users are refused; a new loop thread may replace it)
 * </pre>
 */
final class PollerSeat {

    private final ConsumerPort port;
    /** The thread inside a poll now (user or device loop), or {@code null}. */
    private final AtomicReference<Thread> poller = new AtomicReference<>();
    /** The device loop driving the port, or {@code null} while users may poll it. */
    private volatile Thread engagedLoop;
    private volatile DeliveryWorker worker;
    private volatile boolean delegated;

    PollerSeat(ConsumerPort port) {
        this.port = port;
    }

    /** A user's round step, the listener on the calling thread. */
    int pollAsUser(int maxFrames) {
        checkUserPoll();
        Thread me = Thread.currentThread();
        Thread other = poller.compareAndExchange(null, me);
        if (other != null) {
            throw new IllegalStateException(other == me
                    ? "poll: consumer " + port.device() + " of channel '" + port.channel() + "' is polled from inside its own "
                    + "listener; a listener must not poll its own port"
                    : "poll: one thread at a time polls a port, and thread '" + other.getName() + "' is polling consumer "
                    + port.device() + " of channel '" + port.channel() + "'; poll each port from one thread");
        }
        try {
            checkUserPoll(); // the launcher may have engaged in between: it skips us this pass, we refuse from now on
            return port.pollInside(maxFrames, RoundMachine.USER);
        } finally {
            poller.set(null);
        }
    }

    void checkUserPoll() {
        Thread loop = engagedLoop;
        if (loop != null) {
            throw new IllegalStateException("poll: consumer " + port.device() + " of channel '" + port.channel() + "' is polled by "
                    + "the seqlink launcher (thread '" + loop.getName() + "': its runtime is started), and a port has one poller; "
                    + "subscribe a listener instead, or poll only ports of a runtime that is not started");
        }
    }

    /**
     * The engaged device loop's round step. Nothing (0) for any other thread: a loop thread that was
     * replaced while a listener held it up, or a user poll that began before the launcher engaged and is
     * finishing (the compare-and-set keeps them apart).
     */
    int pollEngaged(int maxFrames) {
        Thread me = Thread.currentThread();
        if (me != engagedLoop || !poller.compareAndSet(null, me)) {
            return 0;
        }
        try {
            return port.pollInside(maxFrames, delegated ? RoundMachine.LOOP_DELEGATED : RoundMachine.LOOP);
        } finally {
            poller.set(null);
        }
    }

    /** The port's listener thread, started on first need by the poller. */
    DeliveryWorker listenerThread() {
        DeliveryWorker w = worker;
        if (w == null) {
            w = new DeliveryWorker(port, port.rounds());
            worker = w;
            w.start();
        }
        return w;
    }

    /** Whether the engaged loop is inside this port's listener now (a delivery attempt in progress, not delegated). */
    boolean inlineListenerCall() {
        return !delegated && poller.get() == engagedLoop && port.rounds().round().attempt() > 0;
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

    Thread engagedLoop() {
        return engagedLoop;
    }

    void engage(Thread loop) {
        engagedLoop = Objects.requireNonNull(loop, "loop");
    }

    void disengage(long deadlineNanos) {
        engagedLoop = null;
        stopListener(deadlineNanos);
    }

    /** Stops the listener thread, waiting for it until {@code deadlineNanos}; true when it ended. */
    boolean stopListener(long deadlineNanos) {
        DeliveryWorker w = worker;
        if (w == null) {
            return true;
        }
        boolean ended = w.stop(deadlineNanos);
        if (ended) {
            worker = null;
        }
        return ended;
    }

    /** Whether {@code thread} delivers this port's frames (its listener thread, or a user inside poll). */
    boolean deliversOn(Thread thread) {
        DeliveryWorker w = worker;
        return (w != null && w.thread() == thread) || poller.get() == thread;
    }

    /** Whether a listener may be inside a call for the port now: a round is with its listener thread, or a poller is inside a step. */
    boolean listenerInCall() {
        return port.rounds().round().status() == Round.READY || poller.get() != null;
    }
}
