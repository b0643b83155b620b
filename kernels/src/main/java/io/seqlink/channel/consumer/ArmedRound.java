package io.seqlink.channel.consumer;

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
 *   any      cancel(): doorbell[s % n] raised to s by the host -> the wait passes, the consume step
 *                      finds publish_seq < s and takes nothing -> the round lands empty
 * </pre>
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
 * two volatiles: the state and {@link #armedSeq}).
 */
final class ArmedRound {

    /** How often a poller whose armed frame's doorbell passed asks the stream to go on (inline emulated streams). */
    private static final long KICK_NANOS = 20_000;

    private final MappedBuffer doorbells;
    private final int count;
    private final DeviceStream stream;
    private final long maxArmedNanos;
    /** The frame armed now; 0: none. Written by the poller, read by cancellers. */
    private volatile long armedSeq;
    /** The last frame this port's cancel released; 0: none. Written by cancellers, read by the poller. */
    private volatile long releasedSeq;
    /** The stream's count of backend-released waits when the armed wait was enqueued (poller only). */
    private long backendReleasesAtArm;
    private long armedAtNanos;
    private long kickAtNanos;

    private ArmedRound(MappedBuffer doorbells, DeviceStream stream, long maxArmedNanos) {
        this.doorbells = doorbells;
        this.count = (int) (doorbells.bytes() >>> 3);
        this.stream = stream;
        this.maxArmedNanos = maxArmedNanos;
    }

    /** The port's armed round, or {@code null} when the channel has no doorbells. */
    static @Nullable ArmedRound of(@Nullable MappedBuffer doorbells, DeviceStream stream, long maxArmedNanos) {
        return doorbells != null ? new ArmedRound(doorbells, stream, maxArmedNanos) : null;
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

    /** Enqueues the wait for frame {@code s}; the caller enqueues the round's work after it, then checks the port's state. */
    void arm(long s) {
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
     * Releases the armed round, if any, without the producer: raises its doorbell to its frame, so the
     * wait passes and the round lands (empty unless the frame was published meanwhile). Any thread.
     */
    void cancel() {
        long s = armedSeq;
        if (s != 0) {
            releasedSeq = s; // before the raise: the poller sees it once the round the raise released has landed
            doorbells.raiseTo(word(s), s);
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
