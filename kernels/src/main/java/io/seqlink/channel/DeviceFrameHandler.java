package io.seqlink.channel;

/**
 * Enqueues device work on each consume round's frames; it must not wait for that work.
 *
 * <p>Called by the port's poller (or its listener thread, for a round that failed on the poller), one
 * round at a time; the work it enqueues on {@link DeviceFrames#stream()} runs after the round's consume
 * step and before its ack.
 */
@FunctionalInterface
public interface DeviceFrameHandler {

    void onFrames(DeviceFrames frames) throws Exception;

    /**
     * Whether this listener takes armed rounds (the channel's {@code armed-rounds} setting must be on
     * too): when the consumer has caught up, its poller calls {@link #onFrames} for the next frame BEFORE that
     * frame is published, with {@code first() == last()} that frame, and the work it enqueues waits on the
     * stream, behind the consume step, for the publish. Such a round may be released without its frame (the
     * channel closes or pauses, the round waited longer than the stall timeout, a wait woke early): its consume
     * step then takes nothing and writes {@code READY_TO < first()} into {@link DeviceFrames#descriptor()}. So a
     * listener that answers {@code true} must make its kernels read the descriptor in stream order and do
     * nothing for frames above {@code READY_TO} (or below {@code VALID_FROM}): in CUDA,
     * {@code seqlink::device::round_frames(descriptor, first, last, &from, &to)} from {@code seqlink_device.cuh};
     * on the emulated backend, its Java twin reads the same words. Its host code must not act on the frame
     * either (it has not come yet); the channel acknowledges only what the descriptor says was taken, and a
     * frame a released round did not take comes again, once, in an ordinary round. Default {@code false}: every
     * round's frames were seen published before {@code onFrames} (one host hop more per frame when idle).
     * Asked on the poller each time it could arm this listener's next round (an idle pass), so keep it cheap and answer the same every time.
     */
    default boolean acceptsArmedRounds() {
        return false;
    }

    /**
     * Whether this listener's own kernels acknowledge each round, so the channel enqueues no ack step after them
     * (one step fewer per round on the consumer's stream: the source article's shape, a consumer kernel that ends
     * with the acknowledgement). A listener that answers {@code true} must, in EVERY call of {@link #onFrames} that
     * returns normally, end the work it enqueues with the round's last kernel calling, from every thread as its
     * last act, {@code seqlink::device::acknowledge_taken_at_end(descriptor, acknowledgement, arrivals, round)} from
     * {@code seqlink_device.cuh}, with {@link DeviceFrames#descriptor()}, {@link DeviceFrames#acknowledgement()}, a
     * 64-bit counter of its own in device memory (zeroed once; the last block resets it) and {@link DeviceFrames#round()},
     * which tags the counter: every block must make the call, once per launch, or the next round's launch fails its
     * round and the consumer is failed ({@code SEQLINK_ROUND_PROTOCOL}); its Java twin on the emulated backend
     * calls {@link io.seqlink.backend.KernelInvocation#acknowledgeTaken}. Only the round's LAST kernel may do it:
     * the acknowledgement covers every frame the round took, so an earlier kernel's would free slots later kernels
     * still read. A round whose work does not end so is never acknowledged, and the producer stalls on
     * backpressure until the channel's stall timeout reports this consumer. A round the listener did not
     * complete (it threw, and the retry policy dead-lettered or skipped its frames) is acknowledged by the
     * channel as usual. Throw, if at all, BEFORE enqueuing the acknowledging kernel: once enqueued it acknowledges
     * the round when it runs, whatever the call did next, and the producer may then reuse the frames' slots. A
     * retry of the same round reads the consumer's local ring, which nothing rewrites before it (copy mode); the
     * ordinary round that retries a failed armed call copies the frame again, and a reused slot fails the consume
     * step's stamp check, so the descriptor's {@code VALID_FROM} passes it (skipped by kernels that read the
     * descriptor, as an armed listener's must); in direct mode a retry reads in place, so there a listener that
     * acknowledges in its kernel must not throw after enqueuing it. Default {@code false}.
     * Asked once per delivered round, so answer the same every time.
     */
    default boolean acknowledgesInKernel() {
        return false;
    }

    /**
     * Whether this listener's ONE kernel is the whole round: the channel then enqueues
     * NEITHER its consume step NOR an ack step for the rounds delivered to it, so a round is one kernel on the
     * consumer's stream (behind the armed wait, when {@link #acceptsArmedRounds} too). Implies
     * {@link #acknowledgesInKernel}. A listener that answers {@code true} must, in EVERY call of {@link #onFrames}
     * that returns normally, enqueue exactly one kernel that takes the handles with
     * {@code KernelCall.consumeHandles(index, frames.consumeHandles())} and, from every thread of every block:
     * <ol>
     *   <li>begins with {@code taken = seqlink::device::take_round(c, first, last, round, armed)}
     *       ({@link DeviceFrames#first()}, {@link DeviceFrames#last()}, {@link DeviceFrames#round()},
     *       {@link DeviceFrames#armed()}): the one acquire read of {@code publish_seq} (an armed round's then the
     *       host's cancel word), the blocks agreeing on one value; the frames it took are {@code first .. taken.end}
     *       (none when {@code taken.end < first}: an armed round released or cancelled without its frame);</li>
     *   <li>reads those frames WHERE THEY ARE, {@code seqlink::device::payload(c, s)} and {@code length(c, s)} (no copy
     *       into a local ring is made, whatever the channel's read mode; {@link DeviceFrames#memory()} is that same
     *       ring);</li>
     *   <li>ends with {@code seqlink::device::end_round(c, taken)}: the descriptor, the counters, the acknowledgement of
     *       what it took, the mirror's round word last.</li>
     * </ol>
     * Every block must call both, once per launch: their grid counters are tagged with the round, and a launch that
     * finds counts a block of an earlier launch left (it returned early) fails its round, taking and acknowledging
     * nothing, and the consumer is failed ({@code SEQLINK_ROUND_PROTOCOL}).
     * Its Java twin on the emulated backend calls {@link io.seqlink.backend.KernelInvocation#takeRound} and
     * {@link io.seqlink.backend.KernelInvocation#endRound}. Lossless delivery only: the frames are read in place
     * with no lapping check, so subscribing such a listener to a channel whose {@code delivery} is {@code LATEST}
     * fails at once. Armed rounds still need {@link #acceptsArmedRounds}.
     *
     * <p>Failures. A call that throws BEFORE enqueuing its kernel is handled as any device listener's: retried
     * (each attempt enqueues its kernel again, over the same frames, still unacknowledged and so in place), then
     * dead-lettered (the channel enqueues its own consume step first, to bring the frames to the host) and
     * acknowledged by the channel. An armed call that throws is followed by the channel's own consume step over
     * the frame and the round's cancel, so the armed round lands; if the call had enqueued its kernel before
     * throwing, that kernel runs too, and takes the frame only if it came and the kernel looked before the cancel:
     * then it acknowledged it, and the channel sees that acknowledgement when the round lands and counts the frame
     * delivered, never delivering it again (the consume step after it, which may see the cancel and write a
     * descriptor that took nothing, does not undo that). An ORDINARY call that
     * throws after enqueuing its kernel breaks the contract: that kernel acknowledges the frames, the producer
     * may reuse their slots, and the retry reads them in place. Default {@code false}. Asked once as each round
     * begins, so answer the same every time.
     */
    default boolean consumesInKernel() {
        return false;
    }
}
