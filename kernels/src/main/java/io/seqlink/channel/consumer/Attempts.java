package io.seqlink.channel.consumer;

import io.seqlink.LogKeys;
import io.seqlink.backend.DeviceException;
import io.seqlink.channel.Frame;
import io.seqlink.channel.RetryPolicy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a port does about a listener that fails, in the spirit of spring-kafka's {@code FailedRecordTracker}: the
 * attempts of one call under the retry policy (backoff between them, on the thread that may wait), the dead-letter
 * hook after the last, the hold at a frame the hook refused, and the failure being retried when a delivery stops to
 * resume elsewhere (the device loop never waits out a backoff: the port's listener thread resumes it) or when an
 * armed device round's call failed before its frame came (the ordinary round that takes the frame resumes at
 * attempt 2). Every call passes its subscription's gate, so a listener removed meanwhile is called no more and its
 * frame is neither retried nor dead-lettered.
 *
 * <p>Threading: the deliverer of the port's round (the poller or the listener thread, one at a time, handed over by
 * the round's status) runs the attempts and owns the failure being retried and the hold; {@link #attempt()},
 * {@link #calls()} and {@link #holding()} are readable from any thread (the watchdog, snapshots).
 */
final class Attempts {

    /** A listener call the attempts repeat: one frame, one batch, or one device round. */
    interface Call {
        void call(int attempt) throws Exception;
    }

    /** The call returned normally. */
    static final int HANDLED = 0;
    /** Every attempt failed: the caller dead-letters the frames ({@link #exhaustedBy()}). */
    static final int EXHAUSTED = 1;
    /** The consumer stopped (closed, dead) or the thread was interrupted while waiting: nothing handled. */
    static final int STOPPED = 2;
    /** The listener was removed: nothing more is handed to it; the frames stay for the next listener. */
    static final int REMOVED = 3;
    /** A retry is due and this thread may not wait: resume on the thread that may ({@link #resumesAt}). */
    static final int RESUME_ELSEWHERE = 4;
    /** The dead-letter hook took the frame. */
    static final int DEAD_LETTERED = 5;
    /** The dead-letter hook refused the frame: the port holds at it ({@link #mayStart}). */
    static final int REFUSED = 6;

    private static final Logger log = LoggerFactory.getLogger(Attempts.class);
    private static final VarHandle ATTEMPT;
    private static final VarHandle CALLS;

    static {
        try {
            ATTEMPT = MethodHandles.lookup().findVarHandle(Attempts.class, "attempt", int.class);
            CALLS = MethodHandles.lookup().findVarHandle(Attempts.class, "calls", long.class);
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final String channel;
    private final int device;
    private final Subscriptions settings;
    private final CounterSet counters;
    private final BooleanSupplier deliverable;
    @SuppressWarnings("unused") // through ATTEMPT
    private int attempt;
    @SuppressWarnings("unused") // through CALLS
    private long calls;
    // the failure being retried: of which listener, at which frame (or call key), the next attempt, the cause
    private @Nullable Subscription pendingFor;
    private long pendingAt;
    private int pendingAttempt;
    private @Nullable Exception pendingCause;
    private @Nullable Exception exhaustedBy;
    private long holdUntilNanos;
    private volatile boolean holding;

    /** @param deliverable whether a delivery may go on (the consumer is neither closed nor dead) */
    Attempts(String channel, int device, Subscriptions settings, CounterSet counters, BooleanSupplier deliverable) {
        this.channel = channel;
        this.device = device;
        this.settings = settings;
        this.counters = counters;
        this.deliverable = deliverable;
    }

    /**
     * Runs {@code call} under the retry policy: each attempt passes {@code sub}'s gate handing frames up to
     * {@code handTo}; {@code key} names the call (its first frame) for a failure resumed later. With {@code mayWait}
     * false it never waits: at the first retry due it returns {@link #RESUME_ELSEWHERE} and keeps the failure.
     * Returns {@link #HANDLED}, {@link #EXHAUSTED}, {@link #STOPPED}, {@link #REMOVED} or {@link #RESUME_ELSEWHERE}.
     *
     * @throws DeviceException a device error raised by the call: the consumer dies of it
     */
    int run(Subscription sub, long key, long handTo, Call call, boolean mayWait) {
        int first = 1;
        Exception last = null;
        if (pendingFor == sub && pendingAt == key) {
            first = pendingAttempt;
            last = pendingCause;
        }
        forgetPending();
        RetryPolicy policy = settings.retry();
        int outcome = EXHAUSTED;
        try {
            for (int n = first; n <= policy.maxAttempts(); n++) {
                ATTEMPT.setOpaque(this, n); // above 1 the listener shows it retries, through the backoff and a hand-over too
                if (n > 1) {
                    if (!mayWait) {
                        keepPending(sub, key, n, last);
                        return outcome = RESUME_ELSEWHERE;
                    }
                    if (!backoff(policy, n)) {
                        return outcome = STOPPED;
                    }
                }
                outcome = once(sub, handTo, call, n);
                if (outcome != EXHAUSTED) {
                    return outcome;
                }
                last = exhaustedBy;
            }
            exhaustedBy = last;
            return outcome = sub.removed() ? REMOVED : EXHAUSTED;
        } finally {
            if (outcome != RESUME_ELSEWHERE) {
                ATTEMPT.setOpaque(this, 0);
            }
        }
    }

    /**
     * One attempt of an armed device round's call, made before its frame exists: never retried here. A failure is
     * kept for the ordinary round that takes the frame ({@code key}), which resumes at attempt 2. Returns
     * {@link #HANDLED}, {@link #EXHAUSTED} (it failed) or {@link #REMOVED}.
     */
    int runArmed(Subscription sub, long key, long handTo, Call call) {
        forgetPending();
        ATTEMPT.setOpaque(this, 1);
        try {
            int outcome = once(sub, handTo, call, 1);
            if (outcome == EXHAUSTED) {
                keepPending(sub, key, 2, exhaustedBy);
            }
            return outcome;
        } finally {
            ATTEMPT.setOpaque(this, 0);
        }
    }

    private int once(Subscription sub, long handTo, Call call, int n) {
        if (!sub.hand(handTo)) {
            return REMOVED;
        }
        countCall();
        try {
            call.call(n);
            return HANDLED;
        } catch (DeviceException ex) {
            throw ex;
        } catch (Exception ex) {
            exhaustedBy = ex;
            return EXHAUSTED;
        } finally {
            sub.done();
        }
    }

    /** The deliveries a frame gets in all: the frame's attempt number when it is dead-lettered. */
    int maxAttempts() {
        return settings.retry().maxAttempts();
    }

    /** Forgets a failure of {@code sub} at {@code key} that needs no retry any more (its frame was delivered after all). */
    void forget(Subscription sub, long key) {
        if (pendingFor == sub && pendingAt == key) {
            forgetPending();
        }
    }

    /** Whether a delivery of {@code sub} resumes a failure at {@code key} (a round that stopped to resume elsewhere). */
    boolean resumes(Subscription sub, long key) {
        return pendingFor == sub && pendingAt == key;
    }

    /**
     * Where a per-frame delivery of {@code sub} over {@code from..to} resumes: the frame whose failure is being
     * retried when it lies in the range, else {@code from}.
     */
    long resumesAt(Subscription sub, long from, long to) {
        return pendingFor == sub && pendingAt >= from && pendingAt <= to ? pendingAt : from;
    }

    /** The failure of the last attempt of a call that {@link #run} reported {@link #EXHAUSTED}. */
    Exception exhaustedBy() {
        Exception e = exhaustedBy;
        if (e == null) {
            throw new IllegalStateException("no exhausted call");
        }
        return e;
    }

    /**
     * Hands {@code frame} to the error handler after its listener's last attempt failed with {@code cause}:
     * {@link #DEAD_LETTERED}; {@link #REFUSED} when the handler threw (the port holds at the frame and delivers it
     * again later); {@link #REMOVED} when the listener was removed (the frame waits for the next one).
     */
    int deadLetter(Subscription sub, Frame frame, Exception cause) {
        if (!sub.hand(frame.sequence())) {
            return REMOVED;
        }
        ATTEMPT.setOpaque(this, frame.attempt()); // a hook that blocks holds the loop up as a listener does
        countCall();
        try {
            settings.errors().onFailedFrame(frame, cause);
            counters.increment(PortCounters.C_DEAD_LETTERED);
            return DEAD_LETTERED;
        } catch (Exception ex) {
            if (sub.removed()) {
                log.debug("seqlink channel '{}' consumer {}: frame {} stays unacknowledged, its listener was removed: {}", channel,
                        device, frame.sequence(), ex.toString());
                return REMOVED;
            }
            holdUntilNanos = System.nanoTime() + Math.max(1_000_000, settings.retry().maxBackoff().toNanos());
            holding = true;
            log.atError().addKeyValue(LogKeys.CHANNEL, channel).addKeyValue(LogKeys.DEVICE, device)
                    .addKeyValue(LogKeys.SEQUENCE, frame.sequence())
                    .log("seqlink channel '{}' consumer {}: frame {} failed every retry and the error handler refused it; the "
                            + "consumer holds at that frame and tries again: {}", channel, device, frame.sequence(), ex.toString());
            return REFUSED;
        } finally {
            ATTEMPT.setOpaque(this, 0);
            sub.done();
        }
    }

    /** Whether the poller may start a round now: not while the port holds at a frame the error handler refused. */
    boolean mayStart() {
        if (holdUntilNanos == 0) {
            return true;
        }
        if (System.nanoTime() - holdUntilNanos < 0) {
            return false;
        }
        holdUntilNanos = 0;
        holding = false;
        return true;
    }

    /** The delivery attempt in progress (0: none): above 1 the listener is retrying. Any thread. */
    int attempt() {
        return (int) ATTEMPT.getOpaque(this);
    }

    /** Listener and dead-letter calls begun so far: a count that stands still while one call lasts. Any thread. */
    long calls() {
        return (long) CALLS.getOpaque(this);
    }

    /** Whether the port holds at a frame its error handler refused. Any thread. */
    boolean holding() {
        return holding;
    }

    /** Waits before attempt {@code n}; false when the consumer stopped or the thread was interrupted (the flag is kept). */
    private boolean backoff(RetryPolicy policy, int n) {
        counters.increment(PortCounters.C_RETRIES);
        long deadline = System.nanoTime() + policy.backoffNanos(n);
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            if (!deliverable.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                return false;
            }
            LockSupport.parkNanos(Math.min(left, 10_000_000));
        }
        return deliverable.getAsBoolean();
    }

    private void countCall() {
        CALLS.setOpaque(this, (long) CALLS.getOpaque(this) + 1);
    }

    private void keepPending(Subscription sub, long key, int nextAttempt, @Nullable Exception cause) {
        pendingFor = sub;
        pendingAt = key;
        pendingAttempt = nextAttempt;
        pendingCause = cause;
    }

    private void forgetPending() {
        pendingFor = null;
        pendingAt = 0;
        pendingAttempt = 0;
        pendingCause = null;
    }
}
