package io.seqlink.channel;

/**
 * A consumer's host mirror of its block's words (acknowledged sequence, device counts): read through the
 * transport while the channel is open, from a copy kept once the channel frees the mirror.
 */
final class ConsumerMirror {

    private final ConsumerTransport binding;
    /** The host mirror's words, kept when the channel frees the mirror; {@code null} while open. */
    private volatile long[] finalMirror;

    ConsumerMirror(ConsumerTransport binding) {
        this.binding = binding;
    }

    /** The word at byte {@code offset} of the consumer block. The caller holds a guard. */
    long word(int offset) {
        long[] frozen = finalMirror;
        return frozen != null ? frozen[offset >>> 3] : binding.mirrorWord(offset); // callers hold a guard
    }

    /** Keeps the mirror's words: the channel is about to free the mirror. The caller holds a guard. */
    void freeze() {
        if (finalMirror == null) {
            finalMirror = binding.mirrorWords();
        }
    }
}
