package io.seqlink.channel;

import io.seqlink.backend.DeviceException;
import io.seqlink.layout.ConsumerBlock;
import org.jspecify.annotations.Nullable;

/**
 * Arms a port's next round before its frame is published, and judges the round when it lands: the part
 * of {@link RoundMachine} that runs on frames nobody has seen yet. Owned by the port's poller.
 *
 * <pre>
 *   host listener:   wait(doorbell[s]) -> consume(s..s) -> copy to host -> host_round          lands: host_round
 *   device listener: wait(doorbell[s]) -> consume(s..s) -> onFrames(s..s)'s work -> ack_ready    lands: round
 *                    (no ack_ready when the listener's last kernel acknowledges: acknowledgesInKernel)
 *   round kernel:    wait(doorbell[s]) -> onFrames(s..s)'s one kernel (take_round .. end_round)  lands: round
 *                    (consumesInKernel: no consume step, no ack step; a failed call gets the consume step)
 *                    (onFrames runs on the poller as it arms; its kernels and ack_ready read the descriptor
 *                    the consume step wrote, in stream order, so a round that took nothing does nothing)
 *   landed, READY_TO &lt; s: released (a cancel) or an early wake; nothing delivered, nothing acknowledged,
 *                    s comes later by an ordinary round (its doorbell passed: it is never armed again)
 * </pre>
 *
 * <p>A device listener that throws as its round is armed gets no ack step: the round is released at once,
 * and the ordinary round that takes the frame later starts at attempt 2 with the failure, so the retry
 * policy counts the armed call, and the frame is delivered or dead-lettered once, as any other.
 */
final class RoundArming {

    private final ConsumerPort port;
    private final ConsumerTransport transport;
    private final CounterSet counters;
    private final FrameDelivery delivery;
    private final ArmedRound armed;
    /** A device listener's failure at arm time, for the ordinary round that takes its frame (0: none). */
    private long failedSeq;
    private @Nullable Exception failure;
    private @Nullable Subscription failedFor;
    /** Whether the armed device round's listener work and ack are on the stream. */
    private boolean acknowledging;

    private RoundArming(ConsumerPort port, ConsumerTransport transport, CounterSet counters, FrameDelivery delivery,
            ArmedRound armed) {
        this.port = port;
        this.transport = transport;
        this.counters = counters;
        this.delivery = delivery;
        this.armed = armed;
    }

    /** The port's arming, or {@code null} when the channel has no doorbells (armed rounds off). */
    static @Nullable RoundArming of(ConsumerPort port, ConsumerTransport transport, CounterSet counters, FrameDelivery delivery,
            @Nullable ArmedRound armed) {
        return armed != null ? new RoundArming(port, transport, counters, delivery, armed) : null;
    }

    /**
     * Whether frame {@code s} may be armed for {@code sub}: a host listener, or a device listener that
     * {@linkplain DeviceFrameHandler#acceptsArmedRounds accepts armed rounds} and runs on the poller (not one
     * that once held the device loop up), and the doorbell and stream allow it ({@link ArmedRound#mayArm}).
     */
    boolean mayArm(Subscription sub, long s, boolean delegated) {
        if (sub.kind == Subscription.Kind.DEVICE && (delegated || !sub.device.acceptsArmedRounds())) {
            return false;
        }
        return armed.mayArm(s);
    }

    /**
     * Enqueues round {@code r} (begun over one frame, not yet seen published): the wait on its doorbell, then
     * its steps as for a frame seen published. A close, pause or death that raced the arm is caught by the
     * state check after it (the canceller sets the state, then reads the armed frame).
     */
    void arm(Round r) {
        long s = r.from;
        armed.arm(s, r.number);
        r.status(Round.STAGED);
        if (!r.consumedInKernel) { // else the listener's one kernel is the round, behind the wait
            transport.consume.enqueueArmed(s, s, r.number);
        }
        if (r.subscription.kind == Subscription.Kind.DEVICE) {
            armListener(r);
        } else {
            transport.stageToHost(transport.hostRing(), s, s);
            transport.signalHostRound(r.number);
        }
        if (!port.active()) {
            armed.cancel();
        }
    }

    /**
     * The device listener's work and the ack of what the consume step took; a listener that failed gets no ack. A
     * round kernel's listener that failed gets the channel's consume step, which lands the round (after the
     * listener's kernel, when it enqueued one before throwing: {@link #landedEmpty} then reads what that kernel
     * acknowledged).
     */
    private void armListener(Round r) {
        acknowledging = delivery.deliverArmed(r);
        if (acknowledging) {
            if (!r.listenerAcknowledges()) {
                transport.ack.enqueueTaken();
            }
            return;
        }
        if (r.consumedInKernel && r.deviceFailure == null) {
            try {
                transport.consume.enqueueArmed(r.from, r.to, r.number); // the cancel below: it takes nothing
            } catch (DeviceException ex) {
                r.deviceFailure = ex;
            }
        }
        armed.cancel(); // lands at once; the frame comes by an ordinary round
        if (r.deviceFailure != null) {
            r.status(Round.IDLE);
            throw r.deviceFailure; // the poller's caller: the consumer dies of it
        }
        if (r.lastFailure != null) {
            failedSeq = r.from;
            failure = r.lastFailure;
            failedFor = r.subscription;
        }
    }

    /** Whether armed round {@code r}'s steps reached the host: its host round (host listener) or its consume step (device). */
    boolean landed(Round r) {
        return r.subscription.kind == Subscription.Kind.DEVICE ? transport.consumeLanded(r.number)
                : transport.hostRoundLanded(r.number);
    }

    /**
     * Armed round {@code r} landed and its consume step's descriptor said it took frames up to {@code readyTo}:
     * true when it delivers nothing (it took nothing, counted as released or early; or its device listener
     * failed), which the caller then ends; false when it took its frame, for the caller to deliver (host) or
     * acknowledge (device, whose outcome is filled in here: its work and ack are on the stream).
     */
    boolean landedEmpty(Round r, long readyTo) {
        boolean released = armed.landed();
        // a failed call's round kernel that ran before the cancel took the frame, though the consume step after it,
        // seeing the cancel, wrote a descriptor that took nothing: the acknowledgement says so
        boolean takenByKernel = !acknowledging && r.consumedInKernel && takenByFailedRoundKernel(r);
        if (readyTo < r.from && !takenByKernel) { // woken before its frame came: nothing delivered, nothing acknowledged
            counters.increment(released ? PortCounters.C_ARMED_RELEASED : PortCounters.C_ARMED_EARLY_WAKES);
            return true;
        }
        if (r.subscription.kind != Subscription.Kind.DEVICE) {
            return false;
        }
        if (!acknowledging && !takenByKernel) {
            return true; // taken by the consume step, not by the listener (it failed, or the channel closed): no ack
        }
        delivery.armedTaken(r);
        port.markProgress();
        return false;
    }

    /**
     * Whether the round kernel a failed armed call enqueued before throwing took and acknowledged the frame: the
     * mirror's acknowledgement (released before the round word the caller acquired) reached it, which nothing else
     * writes for this frame. Then the frame is delivered (the kernel ran on it and freed its slot): counted so,
     * never retried.
     */
    private boolean takenByFailedRoundKernel(Round r) {
        if (transport.mirrorWord(ConsumerBlock.CONSUMED_SEQ) < r.from) {
            return false;
        }
        if (failedSeq == r.from) {
            forgetFailure();
        }
        r.lastFailure = null;
        return true;
    }

    /**
     * An ordinary round {@code r} begins: when it starts at a frame whose armed round's listener failed (the same
     * listener), it resumes that delivery at attempt 2 over that frame alone ({@code r.to} clipped to it).
     */
    void resumeFailed(Round r) {
        if (failedSeq == 0 || r.from < failedSeq) {
            return;
        }
        if (failedSeq == r.from && failedFor != null && failedFor.sameListener(r.subscription)) {
            r.to = r.from;
            r.resumeAttempt = 2;
            r.lastFailure = failure;
        }
        forgetFailure();
    }

    private void forgetFailure() {
        failedSeq = 0;
        failure = null;
        failedFor = null;
    }
}
