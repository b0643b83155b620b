package io.seqlink.channel;

import io.seqlink.backend.DeviceException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One consume round of a port, passed between its poller and whoever delivers it (the poller itself,
 * or the port's listener thread). One object per port, reused: the poller fills the range and sets
 * {@link #READY}; the deliverer fills the outcome and sets {@link #DONE}; the poller applies it (the
 * ack) and sets {@link #IDLE}. The status word orders everything else: each side writes its fields
 * before its release of the status and reads the other's after its acquire.
 *
 * <pre>
 *            poller                                    listener thread              poller
 *   IDLE --(consume [+ stage])--> STAGED --(landed)--> READY --(listener, ack)--> DONE --> IDLE
 *   device listener: IDLE --(consume)--> (delivered inline) or READY
 *   inline (the poller delivers): landed --(listener, ack)--> IDLE; at a failure --> READY (retries elsewhere)
 * </pre>
 */
final class Round {

    static final int IDLE = 0;
    static final int STAGED = 1;
    static final int READY = 2;
    static final int DONE = 3;

    private static final VarHandle STATUS;
    private static final VarHandle ATTEMPT;
    private static final VarHandle CALLS;
    private static final VarHandle HANDED;
    /** Set in {@link #handed} once the channel's drain counted what was handed: nothing more is. */
    private static final long SEALED = Long.MIN_VALUE;

    static {
        try {
            STATUS = MethodHandles.lookup().findVarHandle(Round.class, "status", int.class);
            ATTEMPT = MethodHandles.lookup().findVarHandle(Round.class, "attempt", int.class);
            CALLS = MethodHandles.lookup().findVarHandle(Round.class, "calls", long.class);
            HANDED = MethodHandles.lookup().findVarHandle(Round.class, "handed", long.class);
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @SuppressWarnings("unused") // through STATUS
    private int status;
    @SuppressWarnings("unused") // through ATTEMPT
    private int attempt;
    @SuppressWarnings("unused") // through CALLS
    private long calls;
    /**
     * The highest sequence handed to a listener over all rounds (a frame counts once its first call
     * begins), with {@link #SEALED} set once the drain took it: one compare-and-set per hand-over, so the
     * drain's count and the deliverer's next frame never cross.
     */
    @SuppressWarnings("unused") // through HANDED
    private long handed;

    // ---- filled by the poller -----------------------------------------------------------------
    long number;
    long from;
    long to;
    /** Frames below this were overwritten while the consume step read them (latest delivery). */
    long validFrom;
    Subscription subscription;

    // ---- filled by the deliverer --------------------------------------------------------------
    /** The highest sequence handled, dead-lettered or skipped: what the ack covers ({@code from - 1}: nothing). */
    long handledTo;
    /** Frames handled or dead-lettered: the work the round did. */
    int taken;
    /** Frames the listener handled. */
    int delivered;
    /** Frames found overwritten in the host ring. */
    long missed;
    /** Padding the round covers (claims given back): acknowledged, never delivered. */
    int padding;
    /** Nonzero: the error handler refused a frame; the port holds this long before delivering it again. */
    long holdNanos;
    /** A device error the listener's work raised: the consumer dies of it. */
    DeviceException deviceFailure;
    /** The device listener's own kernels acknowledge the round (it was delivered to one that acknowledges in its kernel). */
    boolean acknowledgedInKernel;
    /** The round's one kernel is its device listener's ({@link DeviceFrameHandler#consumesInKernel}): no consume step, no ack step. */
    boolean consumedInKernel;

    // ---- a delivery the device loop stopped at a failure, for the listener thread to resume ------
    /** Set when the delivery stopped at a failed attempt without waiting: resume it elsewhere. */
    boolean needsRetry;
    /** The attempt to resume with (0: a fresh round). */
    int resumeAttempt;
    /** The frame to resume at (per-frame listeners). */
    long resumeFrom;
    /** The failure of the last attempt, for the error handler should every retry fail. */
    Exception lastFailure;

    int status() {
        return (int) STATUS.getAcquire(this);
    }

    void status(int s) {
        STATUS.setRelease(this, s);
    }

    /** The delivery attempt in progress (0: none), readable from any thread: above 1 the consumer is retrying. */
    int attempt() {
        return (int) ATTEMPT.getOpaque(this);
    }

    void attempt(int a) {
        ATTEMPT.setOpaque(this, a);
    }

    /** Counts a listener (or dead-letter hook) call about to start: the watchdog sees one call that lasts. One writer. */
    void call() {
        CALLS.setOpaque(this, (long) CALLS.getOpaque(this) + 1);
    }

    /** Listener calls so far, readable from any thread. */
    long calls() {
        return (long) CALLS.getOpaque(this);
    }

    /**
     * Marks frames up to {@code sequence} handed to the listener, just before its call; false once the
     * drain sealed the count (the channel closed: the frame must not be delivered). True again for a
     * frame already handed (a retry) until then. The deliverer is the one writer besides {@link #sealHanded}.
     */
    boolean hand(long sequence) {
        for (long h = (long) HANDED.getVolatile(this); ; h = (long) HANDED.getVolatile(this)) {
            if (h < 0) {
                return false;
            }
            if (h >= sequence || HANDED.compareAndSet(this, h, sequence)) {
                return true;
            }
        }
    }

    /** Seals the handed count (the drain, once the consumer is closed): what was handed, from now on no more. Any thread. */
    long sealHanded() {
        for (long h = (long) HANDED.getVolatile(this); ; h = (long) HANDED.getVolatile(this)) {
            if (h < 0 || HANDED.compareAndSet(this, h, h | SEALED)) {
                return h & ~SEALED;
            }
        }
    }

    /** Whether the round's device listener acknowledges on the device: its one kernel is the round, or its last kernel acknowledges. */
    boolean listenerAcknowledges() {
        return consumedInKernel || (subscription.kind == Subscription.Kind.DEVICE && subscription.device.acknowledgesInKernel());
    }

    /** Starts a round over {@code from..to}. */
    void begin(long number, long from, long to, Subscription subscription) {
        this.number = number;
        this.from = from;
        this.to = to;
        this.validFrom = from;
        this.subscription = subscription;
        this.consumedInKernel = subscription.kind == Subscription.Kind.DEVICE && subscription.device.consumesInKernel();
        this.handledTo = from - 1;
        this.taken = 0;
        this.delivered = 0;
        this.missed = 0;
        this.padding = 0;
        this.holdNanos = 0;
        this.deviceFailure = null;
        this.acknowledgedInKernel = false;
        this.needsRetry = false;
        this.resumeAttempt = 0;
        this.resumeFrom = from;
        this.lastFailure = null;
    }
}
