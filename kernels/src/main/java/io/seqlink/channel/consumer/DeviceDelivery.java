package io.seqlink.channel.consumer;

import io.seqlink.backend.Memory;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.layout.ConsumerBlock;

/**
 * The delivery of a device listener: a round's frames stay on the device, the listener enqueues its kernels on the
 * consumer's stream in one call per round ({@link DeviceFrameHandler#onFrames}), and nothing waits for them: the
 * round is delivered as soon as its steps are enqueued, retried as a whole, and a round the listener gives up on is
 * brought to the host for the dead-letter hook and acknowledged by the channel. A listener that
 * {@linkplain DeviceFrameHandler#acceptsArmedRounds accepts armed rounds} is called for its next frame before the frame
 * is published: its work waits on the stream behind the round's consume step, and the round lands later with or
 * without the frame. The three endings differ in what the channel enqueues around the listener's kernels:
 *
 * <pre>
 *   {@link ListenerKernelsDelivery}     consume step, the listener's kernels, the channel's ack step
 *   {@link KernelAckDelivery}           consume step, the listener's kernels (the last one acknowledges)
 *   {@link RoundKernelDelivery}         the listener's one kernel is the round (it consumes and acknowledges)
 * </pre>
 *
 * <p>On a port attached from another process ({@link DeliveryContext#seat}) every ending acknowledges into the port's
 * own mirror, as in-process; the seat the producer gates on gets the acknowledgement from the host, after a look at the
 * seat's lease ({@link LeasedSeat#forward}), and a round found dropped as it launches is refused.
 */
abstract sealed class DeviceDelivery implements ListenerDelivery
        permits ListenerKernelsDelivery, KernelAckDelivery, RoundKernelDelivery {

    final DeliveryContext ctx;
    private final DeviceFrameHandler handler;
    private final DeviceFramesView view;
    private final boolean acceptsArmed;
    private final Attempts.Call call;
    /** Whether the armed round in flight has its listener's work (and acknowledgement) on the stream. */
    private boolean armedWork;
    /** The round in flight was refused as it launched: its port's seat was taken back (it lands at once, empty). */
    private boolean refused;

    /** @param frames where the listener reads the frames ({@link io.seqlink.channel.DeviceFrames#memory()}) */
    DeviceDelivery(DeliveryContext ctx, DeviceFrameHandler handler, Memory frames) {
        this.ctx = ctx;
        this.handler = handler;
        this.view = new DeviceFramesView(ctx, frames);
        this.acceptsArmed = handler.acceptsArmedRounds();
        this.call = attempt -> handler.onFrames(view);
    }

    @Override
    public final Object listener() {
        return handler;
    }

    /** A listener that once held the device loop up is not armed: its call would run on the loop as the round is armed. */
    @Override
    public final boolean arms(boolean delegated) {
        return ctx.armedRounds() && acceptsArmed && !delegated;
    }

    /**
     * On a port attached from another process, a round found dropped as it launches ({@link LeasedSeat#mayDeliver}) is
     * refused: nothing is enqueued, the listener is not called, and the round lands at once, empty. Otherwise the round
     * is delivered at once; its acknowledgement (the ack step's, or the listener kernel's, into the port's own mirror)
     * reaches the seat through {@link LeasedSeat#forward}, after the poller's look at the seat.
     */
    @Override
    public final boolean launch(Round r) {
        if (ctx.attempts().resumes(r.subscription, r.from)) {
            r.to = r.from; // the armed call failed on this frame: its retry takes that frame alone, at attempt 2
        }
        LeasedSeat seat = ctx.seat();
        refused = seat != null && !seat.mayDeliver(r.from, r.to);
        if (refused) {
            return false;
        }
        consumeStep(r);
        return true;
    }

    @Override
    public final boolean arm(Round r) {
        refused = false;
        consumeStep(r);
        view.round(r);
        armedWork = ctx.attempts().runArmed(r.subscription, r.from, r.from - 1, call) == Attempts.HANDLED;
        if (armedWork) {
            acknowledgeArmed();
            return true;
        }
        landFailedArmedCall(r);
        return false;
    }

    @Override
    public final boolean landed(Round r) {
        return refused || ctx.steps().consumeLanded(r.number);
    }

    /**
     * An armed round landed, or an ordinary one was refused as it launched (ordinary device rounds are otherwise
     * delivered as they are enqueued and never land).
     */
    @Override
    public final int land(Round r, boolean released) {
        if (refused) {
            return EMPTY;
        }
        long readyTo = ctx.steps().mirrorWord(ConsumerBlock.READY_TO);
        // a failed call's round kernel may have taken the frame before the cancel, though the consume step behind it,
        // seeing the cancel, wrote a descriptor that took nothing: its acknowledgement says so
        boolean takenByFailedCall = !armedWork && takenByFailedArmedCall(r);
        if (readyTo < r.from && !takenByFailedCall) { // took nothing: the listener's kernels and the ack did nothing either
            ctx.counters().increment(released ? PortCounters.C_ARMED_RELEASED : PortCounters.C_ARMED_EARLY_WAKES);
            return EMPTY;
        }
        if (!armedWork && !takenByFailedCall) {
            return EMPTY; // the consume step took it, no listener work ran on it: it comes again, by an ordinary round
        }
        r.subscription.handedOnDevice(r.from); // the listener's kernels ran on it, even if it was removed since
        ctx.counters().increment(ctx.producer().paddingIn(r.from, r.from) > 0 ? PortCounters.C_PADDING : PortCounters.C_DELIVERED);
        ctx.latency().record(r.from, System.nanoTime());
        r.result = r.from;
        ctx.handled(r.from);
        return COMPLETE;
    }

    @Override
    public final long deliver(Round r, boolean mayWait) {
        view.round(r);
        Attempts attempts = ctx.attempts();
        int outcome = attempts.run(r.subscription, r.from, r.to, call, mayWait);
        if (outcome == Attempts.HANDLED) {
            long padding = ctx.producer().paddingIn(r.from, r.to); // its kernels skip it (seqlink::device::abandoned)
            ctx.counters().add(PortCounters.C_DELIVERED, r.to - r.from + 1 - padding);
            ctx.counters().add(PortCounters.C_PADDING, padding);
            ctx.latency().record(r.to, System.nanoTime());
            acknowledgeDelivered(r.to);
            ctx.handled(r.to);
            return r.to;
        }
        if (outcome == Attempts.RESUME_ELSEWHERE) {
            return RESUME_ELSEWHERE;
        }
        if (outcome == Attempts.EXHAUSTED) {
            return deadLetter(r, attempts.exhaustedBy());
        }
        return r.from - 1; // stopped or removed: nothing handled, the round comes again
    }

    /**
     * The listener gave up on the round: its frames are brought to the host and handed to the error handler one by
     * one, and the channel acknowledges what was dead-lettered (the listener did not complete the round).
     */
    private long deadLetter(Round r, Exception cause) {
        Attempts attempts = ctx.attempts();
        ConsumerSteps steps = ctx.steps();
        beforeDeadLetter(r);
        steps.stageToHost(r.from, r.to);
        steps.stream.synchronize();
        HostRing host = steps.hostRing();
        long handled = r.to;
        for (long s = r.from; s <= r.to; s++) {
            HostRing.HostFrame f = host.frame(s, attempts.maxAttempts());
            if (f != null && !f.padding && attempts.deadLetter(r.subscription, f, cause) != Attempts.DEAD_LETTERED) {
                handled = s - 1;
                break;
            }
        }
        ctx.counters().add(PortCounters.C_PADDING, ctx.producer().paddingIn(r.from, handled));
        if (handled >= r.from) {
            steps.acknowledge(handled);
        }
        ctx.handled(handled);
        return handled;
    }

    // ---- what the endings differ in ----------------------------------------------------------------------

    /** Enqueues the channel's consume step before the listener's work (none when the listener's kernel consumes). */
    void consumeStep(Round r) {
        ctx.steps().consume(r);
    }

    /** After the listener's work on a round delivered to it: the channel's ack of {@code to}, unless its kernels acknowledge. */
    abstract void acknowledgeDelivered(long to);

    /** After the armed call's work: the ack of what the round takes, unless the listener's kernels acknowledge. */
    abstract void acknowledgeArmed();

    /** The armed call failed: whatever makes the round land without the listener's work. */
    void landFailedArmedCall(Round r) {
    }

    /** Whether work the failed armed call enqueued before it threw took the frame and acknowledged it. */
    boolean takenByFailedArmedCall(Round r) {
        return false;
    }

    /** Before a dead letter: what fills the frame ring the host staging copies from. */
    void beforeDeadLetter(Round r) {
    }
}
