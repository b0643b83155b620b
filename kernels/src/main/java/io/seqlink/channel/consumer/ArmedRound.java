package io.seqlink.channel.consumer;

import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import org.jspecify.annotations.Nullable;

/**
 * A port's pre-armed round: when the port has caught up, its poller enqueues the next
 * frame's round before the frame exists, behind a stream wait on the frame's doorbell, so the consume
 * step runs as soon as the producer publishes, without the host seeing the publish first.
 *
 * <pre>
 *   doorbell ring (pinned, one per channel, n = 2 x slots words; the publish stores s into s % n
 *   for every frame s, after a fence that orders the add before it: an extra signal, never the publication)
 *
 *   poller   arm(s):   stream: wait(doorbell[s % n] >= s) -> consume(s..s) -> host listener: stage, host_round
 *                                                                       | device listener: its kernels, ack_ready
 *   GPU      publish s: doorbell[s % n] = s -> the wait passes -> the consume step's own acquire read
 *   any      cancel(): mirror ARM_CANCEL raised to the round's number r, stored into the device block's
 *                      ARM_CANCEL (Device.storeWord: done when it returns), THEN doorbell[s % n] raised to s
 *                      -> the wait passes, the consume step (or round kernel) acquires publish_seq, then
 *                      reads the block's ARM_CANCEL >= r and takes nothing -> the round lands empty
 * </pre>
 *
 * <p>Why the cancel word, when the doorbell alone releases the wait: a released round's consume step would
 * still take its frame if the frame were published by the time it looks, and a frame published after
 * {@link #cancel} returned must not go to the round (its listener may have been removed). The mark is stored
 * before the doorbell raise, in the canceller's program order; a frame published after the cancel returned is
 * published by a launch that follows the mark, and the round reads the mark after its acquire read of that
 * publish: it sees the mark (docs/memory-model.md, "The cancel word"). A frame already published when the
 * round looks may go either way: the round takes it, or an ordinary round does. The mark kernels read lives in the
 * consumer's device block, not in pinned host memory: a round kernel's every block reads it before it reads a
 * frame, and uncached reads of one host word queue up (on the H200 a 256-block round kernel paid about 120 µs for
 * them), while a read of device memory costs what any other does. Storing it costs the canceller a round trip to
 * the device; cancels are rare (a listener's removal, a stall, close).
 *
 * <p>Why a ring and not one monotonic word: the host's cancel must never be undone by a producer store.
 * The producer stores into word {@code s % n} only {@code s} and later laps ({@code s + k n}); the host
 * arms {@code s} only after it saw the mirror at {@code s - 1 >= s - n} (the previous lap's store landed),
 * and its cancel raises the word by compare-and-set (never lowers a later lap's value). So once raised,
 * the word stays at least {@code s}. A single monotonic word would let a publish of an older batch land
 * after the host's raise and lower it again.
 *
 * <p>Rules: one round armed at a time (the port's one round in flight, so no host-ring slot a listener
 * holds is restaged: arming happens only after the last round's ack); a frame is armed only while its
 * doorbell is below it, so a frame whose armed round landed empty (released by a cancel, this port's or
 * another consumer's of the shared word) is never armed again: its doorbell passes for good, and the
 * poller takes it by an ordinary round once it sees it published. A round armed longer than the channel's stall
 * timeout is cancelled by its poller, which bounds how long a wait holds a stream (and any stream
 * aliased onto the same hardware queue: one armed wait per consumer stream).
 *
 * <p>Threading: {@link #arm}, {@link #landed}, {@link #mayArm} and {@link #waiting} belong to the port's
 * poller; {@link #cancel} is safe from any thread (close, pause, a consumer's death), and a cancel that
 * races an arm is caught by the poller's check of the port's state after it armed (Dekker's argument on
 * two volatiles: the state and {@link #armedSeq}). Several cancellers may raise the mark at once: the raise
 * is a compare-and-set that never lowers it.
 */
final class ArmedRound {

    /** How often a poller whose armed frame's doorbell passed asks the stream to go on (inline emulated streams). */
    private static final long KICK_NANOS = 20_000;

    private final MappedBuffer doorbells;
    private final int count;
    /** The consumer's cancel word, which cancel() raises before the doorbell. */
    private final CancelMark mark;
    private final DeviceStream stream;
    private final long maxArmedNanos;
    /** The frame armed now; 0: none. Written by the poller (after {@link #armedRound}), read by cancellers. */
    private volatile long armedSeq;
    /** The number of the round armed for {@link #armedSeq} (written before it; stays after it is cleared). */
    private volatile long armedRound;
    /** The last frame this port's cancel released; 0: none. Written by cancellers, read by the poller. */
    private volatile long releasedSeq;
    /** The stream's count of backend-released waits when the armed wait was enqueued (poller only). */
    private long backendReleasesAtArm;
    private long armedAtNanos;
    private long kickAtNanos;

    private ArmedRound(MappedBuffer doorbells, CancelMark mark, DeviceStream stream, long maxArmedNanos) {
        this.doorbells = doorbells;
        this.count = (int) (doorbells.bytes() >>> 3);
        this.mark = mark;
        this.stream = stream;
        this.maxArmedNanos = maxArmedNanos;
    }

    /** The port's armed round with its consumer's cancel word, or {@code null} when the channel has no doorbells. */
    static @Nullable ArmedRound of(@Nullable MappedBuffer doorbells, CancelMark mark, DeviceStream stream, long maxArmedNanos) {
        return doorbells != null ? new ArmedRound(doorbells, mark, stream, maxArmedNanos) : null;
    }

    private long word(long s) {
        return (s % count) * 8;
    }

    /**
     * Whether frame {@code s} (not yet seen published) may be armed: only while its doorbell is below it (a
     * released frame's doorbell passes for good: it is never armed again), and only while a wait on the stream
     * holds back no other stream.
     */
    boolean mayArm(long s) {
        return doorbells.getAcquire(word(s)) < s && stream.canWaitValue();
    }

    /**
     * Enqueues the wait for frame {@code s}, the frame of round {@code round}; the caller enqueues the round's work
     * after it (an armed consume step, or a round kernel told it is armed), then checks the port's state.
     */
    void arm(long s, long round) {
        armedRound = round;
        armedSeq = s;
        long now = System.nanoTime();
        armedAtNanos = now;
        kickAtNanos = now;
        backendReleasesAtArm = stream.waitsReleasedByBackend(); // before the wait: a later release is of this one
        stream.waitValueAtLeast(doorbells, word(s), s);
    }

    /** The frame armed now, or 0. */
    long armed() {
        return armedSeq;
    }

    /**
     * Releases the armed round, if any, without the producer: marks its number cancelled in the mirror's
     * {@code ARM_CANCEL} (a monotonic raise), then raises its doorbell to its frame, so the wait passes and the
     * round lands. It takes nothing published after this call returned (the round reads the mark after its
     * acquire read of such a publish); a frame published before may still be taken, if the round looked before the
     * mark. Blocks for a round trip to the device (the mark's store). Any thread; a cancel that races an arm marks the round armed at its first look or a later one, never an
     * earlier one (a later round marked early only lands empty, its frame then coming by an ordinary round).
     */
    void cancel() {
        for (;;) {
            long s = armedSeq;
            if (s == 0) {
                return;
            }
            long round = armedRound;
            if (armedSeq != s) {
                continue; // the round landed and another was armed between the two reads: look again
            }
            // armedSeq never repeats a frame while armed (a frame is armed once), and arm() writes the round
            // before the frame: `round` is s's round
            try {
                mark.raise(round); // done BEFORE the doorbell (memory-model.md, "The cancel word")
            } catch (DeviceException e) {
                // the device failed a 64-bit store: its context is lost, so no round of this port runs again and
                // the port's stream reports the failure on its next use; the doorbell below still frees the stream
            }
            releasedSeq = s; // before the raise: the poller sees it once the round the raise released has landed
            doorbells.raiseTo(word(s), s);
            return;
        }
    }

    /**
     * The armed round has not landed yet: cancels it once it has been armed longer than the stall timeout,
     * and, once its doorbell passed, asks the stream to go on ({@link DeviceStream#completed()}, which also
     * throws the stream's failure).
     */
    void waiting() {
        long s = armedSeq;
        long now = System.nanoTime();
        if (now - armedAtNanos > maxArmedNanos) {
            cancel();
        }
        if (now - kickAtNanos >= 0 && doorbells.getAcquire(word(s)) >= s) {
            kickAtNanos = now + KICK_NANOS;
            stream.completed();
        }
    }

    /**
     * The armed round landed (whether or not it took its frame). Returns whether the host released it: this
     * port's cancel, or the backend before a call that waits for queued work ({@link
     * DeviceStream#waitsReleasedByBackend}). For a round that landed empty, {@code false} means its wait passed
     * on a doorbell neither raised: an early wake (the producer's doorbell seen before its add), or another
     * consumer's cancel of the shared word.
     */
    boolean landed() {
        long s = armedSeq;
        armedSeq = 0;
        return releasedSeq == s || stream.waitsReleasedByBackend() != backendReleasesAtArm;
    }
}
