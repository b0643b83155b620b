package io.seqlink.bench;

import io.seqlink.backend.FramePattern;
import io.seqlink.backend.MappedBuffer;

/**
 * Compares the checksums a consumer wrote (word {@code s % 1024} per frame {@code s}) with the
 * pattern's expected checksum for the last frames of a run. Frames up to 64 KiB are all checked; above
 * that every 16th (the comparator's rule), and the host's share of the work is capped: computing the
 * expected checksum of a 16 MiB frame takes milliseconds of CPU.
 */
final class FrameVerifier {

    /** Most bytes of expected pattern the host computes per run. */
    private static final long HOST_BYTES_BUDGET = 256L << 20;

    private FrameVerifier() {
    }

    record Outcome(long verified, long corrupt) {
    }

    static boolean checked(long sequence, long size) {
        return size <= BenchEnvironment.LARGE_FRAME || sequence % 16 == 0;
    }

    /** Checks frames {@code last} downwards while they still have results and the budget lasts. */
    static Outcome verify(MappedBuffer sums, long last, long size) {
        long verified = 0;
        long corrupt = 0;
        long spent = 0;
        long first = Math.max(1, last - ChecksumListener.RESULT_WORDS + 1);
        for (long s = last; s >= first && spent < HOST_BYTES_BUDGET; s--) {
            if (!checked(s, size)) {
                continue;
            }
            spent += size;
            long got = sums.getAcquire(8 * (s % ChecksumListener.RESULT_WORDS));
            if (got == FramePattern.expectedChecksum(s, (int) size)) {
                verified++;
            } else {
                corrupt++;
            }
        }
        return new Outcome(verified, corrupt);
    }
}
