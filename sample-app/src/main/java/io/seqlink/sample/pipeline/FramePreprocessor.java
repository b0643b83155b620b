package io.seqlink.sample.pipeline;

import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jspecify.annotations.Nullable;

/**
 * The producer on the frames channel's device (GPU 0 in the article): prepares each frame with real
 * kernels straight into the claimed slot and publishes.
 *
 * <p>Per frame, on the channel's producer stream and in this order: three header words, the synthetic
 * 8-bit image of the frame's seed (pattern kernel, into one scratch buffer on the device), its
 * normalisation into float32 in the slot (normalise kernel), and the checksum of those floats into the
 * header (checksum kernel); then {@code commitDevice}. Stream order puts all of it before the publish,
 * which releases up to {@code max-publish-batch} frames with one atomic add. Reusing the scratch image
 * is safe for the same reason: the next frame's pattern kernel runs after this frame's normalise.
 *
 * <p>HTTP requests and the background source take turns through a lock: a channel takes claims from
 * any number of threads, but one producer at a time keeps an injection's frames contiguous (its answer
 * names the first and last sequence) and the credit count simple. Before each claim the producer also takes a credit (at most
 * {@code sample.pipeline.max-in-flight} frames between preparation and collection), which keeps every
 * inference device's result ring from overflowing without any consumer ever waiting.
 */
public final class FramePreprocessor implements AutoCloseable {

    private final ReentrantLock lock = new ReentrantLock();
    private final PublishChannel frames;
    private final DeviceStream stream;
    private final SampleWork work;
    private final Memory ring;
    private final DeviceBuffer image;
    private final int pixels;
    private final int frameBytes;
    private final float mean;
    private final float std;
    private final int maxInFlight;
    private final PipelineStatistics stats;
    private final IdleStrategy idle = new BackoffIdleStrategy(50, 10, 10_000, 1_000_000);
    /** Frames committed and not yet published (under the lock). */
    private int unpublished;
    /** Set once the pipeline stops: no injection starts any more. */
    private volatile boolean stopped;

    FramePreprocessor(PublishChannel frames, Device producer, PipelineProperties props, PipelineStatistics stats) {
        this.frames = frames;
        this.stream = frames.producerStream();
        this.work = new SampleWork(stream);
        this.ring = frames.ring();
        this.pixels = props.pixels();
        this.frameBytes = FrameLayout.frameBytes(pixels);
        this.mean = props.mean();
        this.std = props.std();
        this.maxInFlight = props.maxInFlight();
        this.stats = stats;
        // Whole 128-byte lines: allocations are line-aligned anyway, and the emulated backend's allocator can
        // come out short for other sizes.
        this.image = producer.allocate((pixels + Memory.ALIGNMENT - 1) / Memory.ALIGNMENT * (long) Memory.ALIGNMENT);
    }

    /**
     * Prepares and publishes {@code count} frames with seeds {@code firstSeed, firstSeed + 1, ...}, waiting
     * up to {@code timeout} in all for the producer, for credit and for free slots. Returns what was done;
     * fewer frames than asked when the pipeline stayed full or the channel closed.
     */
    public Injection produce(int count, long firstSeed, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (stopped) {
            return new Injection(count, 0, 0, 0, firstSeed, Stop.CLOSED, null);
        }
        if (!lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            return new Injection(count, 0, 0, 0, firstSeed, Stop.BUSY, null);
        }
        long first = 0;
        long last = 0;
        int done = 0;
        Stop stop = Stop.NONE;
        try {
            idle.reset();
            while (done < count) {
                if (stopped) {
                    stop = Stop.CLOSED;
                    break;
                }
                if (stats.inFlight() >= maxInFlight) {
                    publishPending(); // what is committed must move, or no credit ever comes back
                    if (System.nanoTime() - deadline > 0) {
                        stop = Stop.NO_CREDIT;
                        break;
                    }
                    idle.idle();
                    continue;
                }
                long seq = frames.tryClaim();
                if (seq == ClaimStatus.BATCH_FULL) {
                    publishPending();
                    continue;
                }
                if (seq == ClaimStatus.BACK_PRESSURED) {
                    // every slot holds a frame a consumer has not taken: publish ours (they must move), then wait for a
                    // slot in one blocking claim, so the channel's backpressure counter counts this frame once
                    publishPending();
                    seq = frames.claim(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    if (seq == ClaimStatus.BACK_PRESSURED) {
                        stop = Stop.BACK_PRESSURED;
                        break;
                    }
                    if (seq == ClaimStatus.BATCH_FULL) {
                        continue;
                    }
                }
                if (seq < 0) {
                    stop = seq == ClaimStatus.FAILED ? Stop.FAILED : Stop.CLOSED;
                    break;
                }
                idle.reset();
                prepare(seq, firstSeed + done);
                frames.commitDevice(frameBytes);
                unpublished++;
                stats.committed(seq, System.nanoTime());
                if (first == 0) {
                    first = seq;
                }
                last = seq;
                done++;
            }
            publishPending();
        } finally {
            lock.unlock();
        }
        Throwable failure = stop == Stop.FAILED ? frames.failure() : null;
        return new Injection(count, done, first, last, firstSeed, stop, failure == null ? null : failure.getMessage());
    }

    /** Enqueues the preparation of frame {@code seq} into its claimed slot. */
    private void prepare(long seq, long seed) {
        long payload = frames.payloadOffset(seq);
        stream.writeValue(ring, payload + FrameLayout.SEQUENCE, seq);
        stream.writeValue(ring, payload + FrameLayout.SEED, seed);
        stream.writeValue(ring, payload + FrameLayout.PIXELS, pixels);
        work.fillPattern(image, 0, pixels, seed);
        work.normalize(image, 0, ring, payload + FrameLayout.HEADER_BYTES, pixels, mean, std);
        work.checksum(ring, payload + FrameLayout.HEADER_BYTES, 4L * pixels, ring, payload + FrameLayout.INPUT_CHECKSUM);
    }

    private void publishPending() {
        if (unpublished > 0) {
            frames.publish();
            unpublished = 0;
        }
    }

    public String channel() {
        return frames.name();
    }

    /**
     * Takes no more frames: an injection in progress ends after its current frame (everything it
     * committed is published), waited for up to {@code timeout}; later ones return {@code CLOSED}.
     */
    void stop(Duration timeout) throws InterruptedException {
        stopped = true;
        if (lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            lock.unlock();
        }
    }

    /** Takes frames again after {@link #stop}: the pipeline was started again (its context restarted). */
    void resume() {
        stopped = false;
    }

    @Override
    public void close() {
        image.close();
    }

    /** Why an injection stopped before its count. */
    public enum Stop {
        /** It did not: every frame was published. */
        NONE,
        /** Another injection held the producer for the whole timeout. */
        BUSY,
        /** {@code max-in-flight} frames stayed uncollected for the whole timeout. */
        NO_CREDIT,
        /** The frames channel had no free slot for the whole timeout: a consumer is not keeping up. */
        BACK_PRESSURED,
        /** The pipeline or its frames channel is closed (the service is stopping). */
        CLOSED,
        /** The frames channel failed. */
        FAILED
    }

    /**
     * The outcome of one {@link #produce} call.
     *
     * @param requested     frames asked for
     * @param published     frames prepared and published
     * @param firstSequence frames-channel sequence of the first, 0 if none
     * @param lastSequence  sequence of the last, 0 if none
     * @param firstSeed     seed of the first frame (frame i has seed firstSeed + i)
     * @param stop          why it stopped early, or {@code NONE}
     * @param failure       the channel's failure, when {@code stop} is {@code FAILED}
     */
    public record Injection(int requested, int published, long firstSequence, long lastSequence, long firstSeed, Stop stop,
            @Nullable String failure) {
    }
}
