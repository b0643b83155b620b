package io.seqlink.soak;

import io.seqlink.backend.FramePattern;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The listener of one soak consumer: checks every frame against {@link FramePattern} (its seed and
 * length follow from its sequence), counts corrupt, duplicated or reordered frames and the gaps
 * between what it saw, and now and then stalls the launcher thread to provoke backpressure (lossless)
 * or laps (latest). Runs on the consumer's launcher thread only; counters are read after the run, or
 * approximately while it runs. Allocates nothing per frame.
 */
final class SoakVerifier implements FrameHandler {

    private final int device;
    private final int slotBytes;
    private final double stallProbability;
    private final SplittableRandom random;

    volatile long delivered;
    volatile long corrupt;
    volatile long duplicates;
    volatile long gaps;
    volatile long last;
    volatile long stalls;

    SoakVerifier(int device, int slotBytes, double stallProbability, long seed) {
        this.device = device;
        this.slotBytes = slotBytes;
        this.stallProbability = stallProbability;
        this.random = new SplittableRandom(seed * 31 + device);
    }

    /** Seed of frame {@code sequence}'s pattern. */
    static long seedOf(long sequence) {
        return FramePattern.mix(sequence) ^ 0x5EEDL;
    }

    /** Length of frame {@code sequence}: 1 to {@code slotBytes}, varying with the sequence. */
    static int lengthOf(long sequence, int slotBytes) {
        return 1 + (int) Long.remainderUnsigned(FramePattern.mix(sequence + 1), slotBytes);
    }

    @Override
    public void onFrame(Frame frame) {
        long s = frame.sequence();
        long previous = last;
        if (s <= previous) {
            duplicates++;
        } else {
            gaps += s - previous - 1;
            last = s;
        }
        int length = lengthOf(s, slotBytes);
        if (frame.length() != length
                || FramePattern.checksum(frame.payload(), 0, length) != FramePattern.expectedChecksum(seedOf(s), length)) {
            corrupt++;
        }
        delivered++;
        if (stallProbability > 0 && random.nextDouble() < stallProbability) {
            stalls++;
            LockSupport.parkNanos(random.nextLong(2_000_000)); // up to 2 ms: the consumer falls behind
        }
    }

    int device() {
        return device;
    }
}
