package io.seqlink.backend.cuda;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Keeps stream waits on pinned host memory from holding calls that wait for queued work. A context synchronisation,
 * and loading a module, wait for the work already queued on the context; a stream wait ({@code cuStreamWaitValue64})
 * that nothing raises would hold such a call for ever, and the thread that would raise it (a producer's publish) may be
 * the one in the call. The host can end such a wait itself by raising its word: the channel's armed round behind it
 * then lands empty, which is always safe. Each stream keeps its last wait in a {@link Pending}; {@link #around} runs a
 * call with every pending wait released first, and a wait recorded while a call runs is released as it is recorded.
 *
 * <p>Why no wait slips between the two: {@code around} raises its count, then releases each stream's wait under that
 * {@code Pending}'s monitor; a stream records a wait, and reads the count, under the same monitor. For each stream,
 * either the release takes the monitor after the record (and releases the wait), or the record takes it after the
 * release, which came after the raise of the count, so the record reads it raised and releases the wait itself.
 */
final class HostWaitRelease {

    /** Calls under way ({@link #around}); while any is, a recorded wait is released at once. */
    private final AtomicInteger calls = new AtomicInteger();

    /**
     * Runs {@code call} (which waits for queued work) with every wait of {@code pending} released first, and every wait
     * recorded until it returns released as it is recorded. {@code pending} is walked after the call is counted, so a
     * stream it does not reach records its wait after the count was raised. Any thread.
     */
    <T> T around(Iterable<Pending> pending, Supplier<T> call) {
        calls.incrementAndGet();
        try {
            for (Pending p : pending) {
                p.release();
            }
            return call.get();
        } finally {
            calls.decrementAndGet();
        }
    }

    /** A word of pinned host memory a stream can wait on ({@link CudaMappedBuffer}). */
    interface Word {
        /** Raises the word at {@code offset} to at least {@code value}, never lowering it; returns its value before. */
        long raiseTo(long offset, long value);
    }

    /** A new stream's record of its last wait. */
    Pending pending() {
        return new Pending();
    }

    /** One stream's last wait on pinned host memory, released whole or not at all (its methods share its monitor). */
    final class Pending {

        private @Nullable Word word;
        private long offset;
        private long value;
        /** Waits {@link #release} ended by raising their word (written under the monitor, read from any thread). */
        private volatile long released;

        private Pending() {
        }

        /**
         * Records the wait just enqueued: until the word at {@code offset} of {@code word} reaches {@code value}
         * ({@code word} null: a wait on device memory, which the host cannot release). Released at once while a call
         * of {@link #around} runs. The stream's thread, after enqueuing the wait.
         */
        synchronized void record(@Nullable Word word, long offset, long value) {
            this.word = word;
            this.offset = offset;
            this.value = value;
            if (calls.get() > 0) {
                release(); // a call waits for queued work and may have passed this stream before this wait was queued
            }
        }

        /** Raises the recorded wait's word to its value (never lowering it), if a wait is recorded. Any thread. */
        synchronized void release() {
            if (word != null && word.raiseTo(offset, value) < value) {
                released++; // the word was below: this raise ended a wait (a passed one costs nothing)
            }
            word = null; // released or passed: never raised again, so no record outlives its buffer
        }

        /** How many waits {@link #release} ended. Any thread. */
        long released() {
            return released;
        }
    }
}
