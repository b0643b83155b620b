package io.seqlink.channel.consumer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * One listener of a port, from its subscription to its removal: how its frames reach it (its
 * {@link ListenerDelivery}) and the gate every call to it passes. The gate is one word changed only by
 * compare-and-set:
 *
 * <pre>
 *   bit 63       REMOVED: no call begins any more (unsubscribed, replaced, or sealed by the channel's drain)
 *   bit 0        CALLING: a call is in progress
 *   bits 1..62   the highest sequence handed to the listener (a frame counts once a call of it began)
 *
 *   deliverer:   hand(s)   IDLE(h) ──CAS──> CALLING(max(h, s))      fails once REMOVED: the call does not happen
 *                done()    CALLING(h) ──CAS──> IDLE(h)              (REMOVED stays)
 *   any thread:  remove()  IDLE(h) | CALLING(h) ──CAS──> REMOVED + the same
 * </pre>
 *
 * <p>So once {@link #remove()} returned, no call of this listener begins, whichever thread removed it (its own
 * listener included), and {@link #handed()} is final: the exact count a drain reports delivered. The next
 * subscription of the port starts its gate at this one's final handed sequence. The deliverer is one thread at a
 * time (the port's poller or its listener thread, handed over by the round's status).
 */
final class Subscription {

    private static final long REMOVED = Long.MIN_VALUE;
    private static final long CALLING = 1;
    private static final VarHandle GATE;

    static {
        try {
            GATE = MethodHandles.lookup().findVarHandle(Subscription.class, "gate", long.class);
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final @Nullable ListenerDelivery delivery;
    @SuppressWarnings("unused") // through GATE
    private volatile long gate;

    private Subscription(@Nullable ListenerDelivery delivery, long handed) {
        this.delivery = delivery;
        this.gate = handed << 1;
    }

    /** No listener, the port having handed frames up to {@code handed}. */
    static Subscription none(long handed) {
        return new Subscription(null, handed);
    }

    /** {@code delivery}'s listener, taking over a port that handed frames up to {@code handed}. */
    static Subscription of(ListenerDelivery delivery, long handed) {
        return new Subscription(delivery, handed);
    }

    boolean subscribed() {
        return delivery != null;
    }

    /** The delivery of a subscribed listener. */
    ListenerDelivery delivery() {
        ListenerDelivery d = delivery;
        if (d == null) {
            throw new IllegalStateException("no listener is subscribed");
        }
        return d;
    }

    /**
     * Begins a call of the frames up to {@code sequence} (an earlier one again for a retry); false, and no call may
     * happen, once the listener was removed. Pair a {@code true} with {@link #done()}. Deliverer only.
     */
    boolean hand(long sequence) {
        for (long g = (long) GATE.getVolatile(this); ; g = (long) GATE.getVolatile(this)) {
            if (g < 0) {
                return false;
            }
            long h = Math.max(g >>> 1, sequence);
            if (GATE.compareAndSet(this, g, (h << 1) | CALLING)) {
                return true;
            }
        }
    }

    /** The call that {@link #hand} began returned (or threw). Deliverer only. */
    void done() {
        for (long g = (long) GATE.getVolatile(this); (g & CALLING) != 0; g = (long) GATE.getVolatile(this)) {
            if (GATE.compareAndSet(this, g, g & ~CALLING)) {
                return;
            }
        }
    }

    /**
     * Counts frames up to {@code sequence} handed without a call beginning now: an armed device round whose
     * listener's kernels, enqueued before the frame existed, took it on the device. It counts even if the listener
     * was removed since, because the kernels ran on the frame before the removal reached the device. Deliverer only.
     */
    void handedOnDevice(long sequence) {
        for (long g = (long) GATE.getVolatile(this); ; g = (long) GATE.getVolatile(this)) {
            long h = (g & ~REMOVED) >>> 1;
            if (h >= sequence || GATE.compareAndSet(this, g, (g & (REMOVED | CALLING)) | (sequence << 1))) {
                return;
            }
        }
    }

    /** From now on no call begins. Returns whether this call removed it (false: removed before). Any thread. */
    boolean remove() {
        for (long g = (long) GATE.getVolatile(this); ; g = (long) GATE.getVolatile(this)) {
            if (g < 0) {
                return false;
            }
            if (GATE.compareAndSet(this, g, g | REMOVED)) {
                return true;
            }
        }
    }

    boolean removed() {
        return (long) GATE.getVolatile(this) < 0;
    }

    /** Whether a call of this listener is in progress now. Any thread. */
    boolean calling() {
        return ((long) GATE.getVolatile(this) & CALLING) != 0;
    }

    /** The highest sequence handed so far; final once removed. Any thread. */
    long handed() {
        return ((long) GATE.getVolatile(this) & ~REMOVED) >>> 1;
    }

    /** The listener, as its {@code toString()} names it (the Spring layer names the {@code @ChannelListener} method). */
    String describe() {
        return delivery == null ? "no listener" : String.valueOf(delivery.listener());
    }
}
