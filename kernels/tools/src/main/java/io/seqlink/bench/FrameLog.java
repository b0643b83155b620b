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

    /** How many of frames {@code from} to {@code to} recorded words that are not their sequence's pattern. */
    long corrupt(long from, long to) {
        if (!recorded()) {
            return 0;
        }
        long lastWord = lastWordOffset / 8;
        long bad = 0;
        for (long s = from; s <= to; s++) {
            if (first[(int) s] != FramePattern.mix(s) || last[(int) s] != FramePattern.mix(s + lastWord)) {
                bad++;
            }
        }
        return bad;
    }
}
