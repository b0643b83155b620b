package io.seqlink.bench;

import io.seqlink.backend.FramePattern;
import java.nio.ByteBuffer;

/**
 * The host rows' full check: the checksum of a sample of frames against the pattern's, computed on the host
 * after the frame's time was taken. The sample is every frame up to 64 KiB and every 16th above
 * ({@link FrameVerifier#checked}), or every frame a ring still holds after a run ({@link #affords}), while a budget
 * of {@value #BUDGET_BYTES} bytes of checksumming lasts (a 16 MiB frame takes milliseconds). Allocates nothing. One thread at a time; read the counts after that thread's last
 * check happened before.
 */
final class ChecksumSample {

    static final long BUDGET_BYTES = 256L << 20;

    private final long length;
    private long left = BUDGET_BYTES;
    private long verified;
    private long corrupt;

    ChecksumSample(long length) {
        this.length = length;
        // loads the classes a check uses now, before any timed frame: loading a class allocates (it reads the class file)
        FramePattern.expectedChecksum(FrameVerifier.checked(1, length) ? 1 : 2, 8);
    }

    /** Whether frame {@code sequence} is in the sample and the budget still covers it. */
    boolean wants(long sequence) {
        return FrameVerifier.checked(sequence, length) && affords();
    }

    /** Whether the budget still covers a frame (for frames checked whatever their sequence: those a ring still holds). */
    boolean affords() {
        return left >= length;
    }

    /**
     * Checks frame {@code sequence}, whose {@code length} bytes start at {@code index} of {@code littleEndian} (a
     * little-endian view: {@link FramePattern#checksum} then reads it without a copy).
     */
    void check(ByteBuffer littleEndian, int index, long sequence) {
        left -= length;
        if (FramePattern.checksum(littleEndian, index, (int) length) == FramePattern.expectedChecksum(sequence, (int) length)) {
            verified++;
        } else {
            corrupt++;
        }
    }

    long verified() {
        return verified;
    }

    long corrupt() {
        return corrupt;
    }
}
