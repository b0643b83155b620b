package io.seqlink.bench;

import io.seqlink.backend.FramePattern;

/**
 * The host rows' cheap per-frame check, split in two so that only its recording is timed: as a frame lands, its
 * first and last whole words go into arrays allocated before the run; after the run {@link #corrupt} compares them
 * with the pattern of the frame's sequence (word {@code k} of frame {@code s} is {@code mix(s + k)}, so the two words
 * prove the frame is that sequence's at both ends). Frames shorter than 8 bytes have no whole word and are not
 * recorded. One writer thread at a time; read after the writer's last record happened before (a volatile
 * hand-off, a join).
 */
final class FrameLog {

    private final long length;
    private final int lastWordOffset;
    private final long[] first;
    private final long[] last;

    /** Room for frames 1 to {@code frames} of {@code length} bytes. */
    FrameLog(long length, long frames) {
        if (frames > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a frame log holds at most " + (Integer.MAX_VALUE - 8) + " frames, not " + frames);
        }
        this.length = length;
        this.lastWordOffset = (int) (length / 8 - 1) * 8;
        this.first = new long[(int) frames + 1];
        this.last = new long[(int) frames + 1];
    }

    /** Whether frames of this length have a whole word to record. */
    boolean recorded() {
        return length >= 8;
    }

    /** Byte offset of the last whole word in the frame (valid when {@link #recorded}). */
    int lastWordOffset() {
        return lastWordOffset;
    }

    /** The frames this log has room for. */
    long capacity() {
        return first.length - 1;
    }

    /** Records frame {@code sequence}'s first and last whole words. */
    void record(long sequence, long firstWord, long lastWord) {
        first[(int) sequence] = firstWord;
        last[(int) sequence] = lastWord;
    }

    /** Records frame {@code sequence} as failed (a check other than its words found it wrong: its length, say). */
    void markBad(long sequence) {
        first[(int) sequence] = ~FramePattern.mix(sequence);
    }

    /** Whether frame {@code sequence}'s recorded words are its pattern's (always, for frames without a whole word). */
    boolean intact(long sequence) {
        return !recorded() || first[(int) sequence] == FramePattern.mix(sequence)
                && last[(int) sequence] == FramePattern.mix(sequence + lastWordOffset / 8);
    }

    /**
     * How many of frames {@code from} to {@code to} recorded words that are not their sequence's pattern, or were
     * never recorded (a frame that did not arrive), or were marked bad. Frames without a whole word are only counted
     * when marked bad.
     */
    long corrupt(long from, long to) {
        long bad = 0;
        for (long s = from; s <= to; s++) {
            if (recorded() ? !intact(s) : first[(int) s] == ~FramePattern.mix(s)) {
                bad++;
            }
        }
        return bad;
    }
}
