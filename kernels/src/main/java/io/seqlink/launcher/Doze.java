package io.seqlink.launcher;

import java.util.concurrent.TimeUnit;

/**
 * How a device loop whose consumers are all caught up stops looking every few microseconds, and how it is
 * woken. After {@link #QUIET_NANOS} without work, and with no frame waiting on any of its ports, the loop
 * dozes: it parks, polling every port in full only once per {@link #FULL_PASS_NANOS} (a round a listener
 * thread finished, an armed round to enqueue). Meanwhile the launcher's watchdog looks at its ports on this
 * schedule, {@link #FIRST_LOOK_NANOS} after a doze began and then at doubling intervals up to
 * {@link #MAX_LOOK_NANOS}, and wakes the loop as soon as a frame waits ({@code backlog()}). One thread looks
 * at every dozing loop at once, each port with a few reads and no poll, so an idle service wakes about 50
 * times a second in all, whatever its number of devices and channels.
 *
 * <p>The trade: the first frame after a quiet period of more than {@link #QUIET_NANOS} waits up to
 * {@link #MAX_LOOK_NANOS} more before its loop sees it (1 ms in the first milliseconds of the doze); frames
 * that follow one another within {@link #QUIET_NANOS} never wait for a doze.
 *
 * <p>One instance per device loop, its loop thread's; the looks are the watchdog's ({@link DozeWatch}).
 */
final class Doze {

    /** How long a device loop finds no work before it dozes. */
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** When the watchdog first looks at a dozing loop's ports. */
    static final long FIRST_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The longest interval between two looks: what the first frame after a long quiet period can wait more. */
    static final long MAX_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** How often a dozing loop polls every port in full. */
    static final long FULL_PASS_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final boolean enabled;
    private long quietSince = System.nanoTime();

    Doze(boolean enabled) {
        this.enabled = enabled;
    }

    /** After a pass that found {@code work} frames: whether the loop has been quiet long enough to doze. */
    boolean quiet(int work, long nowNanos) {
        if (work > 0) {
            quietSince = nowNanos;
            return false;
        }
        return enabled && nowNanos - quietSince >= QUIET_NANOS;
    }

    /** The loop is awake again: its quiet period restarts now. */
    void awake(long nowNanos) {
        quietSince = nowNanos;
    }
}
