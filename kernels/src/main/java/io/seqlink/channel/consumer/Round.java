package io.seqlink.channel.consumer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The one round of a port in flight: its range, its number and the subscription it delivers to, and the status that
 * passes it between the port's poller and its listener thread. One object per port, reused; its fields are written by
 * the poller as it begins the round ({@link #begin}) and as the round lands (the range the consume step took), and by
 * the listener thread only {@link #result}: each side writes before its release of the status and reads after its
 * acquire of it. What a delivery did (frames handled, failures, retries) is its delivery's and its counters', not the
 * round's.
 *
 * <pre>
 *   poller                                      listener thread            poller
 *   IDLE ──steps enqueued──> LAUNCHED ──landed──> WITH_LISTENER ──delivered──> DONE ──> IDLE (next = result + 1)
 *          (delivered inline by the poller: LAUNCHED or IDLE ──> IDLE)
 * </pre>
 */
final class Round {

    static final int IDLE = 0;
    static final int LAUNCHED = 1;
    static final int WITH_LISTENER = 2;
    static final int DONE = 3;

    private static final VarHandle STATUS;

    static {
        try {
            STATUS = MethodHandles.lookup().findVarHandle(Round.class, "status", int.class);
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @SuppressWarnings("unused") // through STATUS
    private int status;

    long number;
    long from;
    /** The last frame of the range: what the launcher saw published, then what the consume step took once landed. */
    long to;
    /** Frames below this were overwritten while the consume step read them (latest delivery). */
    long validFrom;
    /** Enqueued before its frame was seen published, behind a stream wait on its doorbell. */
    boolean armed;
    Subscription subscription = Subscription.none(0);
    /** Handed to the listener thread to resume a failure (not because its listener once held the loop up). */
    boolean resuming;
    /** The highest sequence the delivery handled (its ack covers it; {@code from - 1}: nothing), set by the deliverer. */
    long result;

    int status() {
        return (int) STATUS.getAcquire(this);
    }

    void status(int s) {
        STATUS.setRelease(this, s);
    }

    /** Begins round {@code number} over {@code from..to} for {@code subscription}. */
    void begin(long number, long from, long to, boolean armed, Subscription subscription) {
        this.number = number;
        this.from = from;
        this.to = to;
        this.validFrom = from;
        this.armed = armed;
        this.subscription = subscription;
        this.result = from - 1;
        this.resuming = false;
    }

    /** The frames the round handled, from its result. */
    int handled() {
        return (int) Math.max(0, result - from + 1);
    }

    ListenerDelivery delivery() {
        return subscription.delivery();
    }
}
