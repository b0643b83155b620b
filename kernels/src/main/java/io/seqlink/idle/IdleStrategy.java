package io.seqlink.idle;

/**
 * What a polling thread does when a round found no work, in the style of Agrona's
 * {@code IdleStrategy}: the caller reports the work it did, the strategy decides how long to back off.
 * Implementations keep per-thread state and are not shared between threads.
 */
public interface IdleStrategy {

    /** Called after each round with the work done; idles only when {@code workCount == 0}. */
    default void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    /** Backs off once more. */
    void idle();

    /** Work was found: start again from the cheapest back-off. */
    void reset();

    /** A short name for logs and metrics. */
    String alias();
}
