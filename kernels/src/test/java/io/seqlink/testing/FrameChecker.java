package io.seqlink.testing;

import io.seqlink.backend.FramePattern;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import java.nio.ByteBuffer;

/**
 * A host listener that checks every frame against {@link FramePattern} (seed derived from the
 * sequence, length chosen by {@link #lengthOf}) and keeps what a delivery test needs: how many frames
 * came, how many were corrupt, duplicated or out of order, and the gaps between them.
 */
public final class FrameChecker implements FrameHandler {

    private final int maxLength;
    public long delivered;
    public long corrupt;
    public long outOfOrder;
    public long gaps;
    public long last;

    public FrameChecker(int maxLength) {
        this.maxLength = maxLength;
    }

    /** The seed of frame {@code sequence}'s pattern. */
    public static long seedOf(long sequence) {
        return sequence * 0x9E3779B97F4A7C15L + 17;
    }

    /** The payload length of frame {@code sequence}: varies with the sequence, 1 to {@code maxLength}. */
    public static int lengthOf(long sequence, int maxLength) {
        return 1 + (int) Long.remainderUnsigned(FramePattern.mix(sequence), maxLength);
    }

    /** Writes frame {@code sequence} into a claimed slot's buffer; returns its length. */
    public static int write(ByteBuffer slot, long sequence, int maxLength) {
        int length = lengthOf(sequence, maxLength);
        FramePattern.fill(slot, 0, length, seedOf(sequence));
        return length;
    }

    @Override
    public void onFrame(Frame frame) {
        long s = frame.sequence();
        if (s <= last) {
            outOfOrder++;
        } else {
            gaps += s - last - 1;
        }
        int expectedLength = lengthOf(s, maxLength);
        if (frame.length() != expectedLength
                || FramePattern.checksum(frame.payload(), 0, frame.length()) != FramePattern.expectedChecksum(seedOf(s), expectedLength)) {
            corrupt++;
        }
        last = Math.max(last, s);
        delivered++;
    }
}
