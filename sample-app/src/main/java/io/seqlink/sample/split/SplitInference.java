package io.seqlink.sample.split;

import io.seqlink.channel.Frame;
import io.seqlink.sample.pipeline.FrameLayout;
import io.seqlink.sample.pipeline.ReferenceModel;
import io.seqlink.spring.listener.ChannelListener;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The inference stage of the split pipeline, in the consumer process: a host {@code @ChannelListener} on the channel
 * attached from the producer process. For every frame it checks the header (its sequence, one more than the last, and
 * the checksum of the float32 image as received against the producer's), runs the model on the image as received, and
 * compares the result with the host's reference for the frame's seed. Called on the consumer's launcher thread; the
 * counters are read from any thread.
 */
public final class SplitInference {

    private final ReferenceModel model;
    private final ReferenceModel.Scratch received;
    private final ReferenceModel.Scratch reference;
    private final AtomicLong inferred = new AtomicLong();
    private final AtomicLong verified = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile long lastSequence = -1;
    private volatile @Nullable String lastFailure;

    public SplitInference(SplitProperties properties) {
        this.model = new ReferenceModel(properties.pixels(), properties.classes(), properties.mean(), properties.std(),
                properties.weightSeed());
        this.received = model.newScratch();
        this.reference = model.newScratch();
    }

    @ChannelListener(channel = "${sample.split.channel:frames}", id = "split-inference")
    public void infer(Frame frame) {
        ByteBuffer p = frame.payload(); // little-endian; read with absolute gets only: nothing allocated per frame
        long seq = p.getLong(FrameLayout.SEQUENCE);
        long seed = p.getLong(FrameLayout.SEED);
        inferred.incrementAndGet();
        long last = lastSequence;
        if (seq != frame.sequence() || (last >= 0 && seq != last + 1) || p.getLong(FrameLayout.PIXELS) != model.pixels()) {
            fail("frame " + frame.sequence() + " carries sequence " + seq + " after " + last + ", pixels "
                    + p.getLong(FrameLayout.PIXELS));
        } else {
            received.inferFrom(p, FrameLayout.HEADER_BYTES);
            reference.compute(seed);
            if (received.inputChecksum() != p.getLong(FrameLayout.INPUT_CHECKSUM)
                    || received.inputChecksum() != reference.inputChecksum()) {
                fail("frame " + seq + ": the image arrived with checksum " + received.inputChecksum() + ", the producer's is "
                        + p.getLong(FrameLayout.INPUT_CHECKSUM) + ", the reference's " + reference.inputChecksum());
            } else if (received.outputChecksum() != reference.outputChecksum()) {
                fail("frame " + seq + ": the result's checksum " + received.outputChecksum() + " differs from the reference's "
                        + reference.outputChecksum());
            } else {
                verified.incrementAndGet();
            }
        }
        lastSequence = seq;
    }

    private void fail(String why) {
        failures.incrementAndGet();
        lastFailure = why;
    }

    /** Frames the listener took. */
    public long inferred() {
        return inferred.get();
    }

    /** Frames whose image and result matched the reference, in sequence. */
    public long verified() {
        return verified.get();
    }

    /** Frames out of sequence, corrupt, or with a wrong result. */
    public long failures() {
        return failures.get();
    }

    /** The sequence of the last frame taken, -1 before the first. */
    public long lastSequence() {
        return lastSequence;
    }

    /** What the last failure was, or {@code null}. */
    public @Nullable String lastFailure() {
        return lastFailure;
    }
}
