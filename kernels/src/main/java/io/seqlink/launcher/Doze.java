package io.seqlink.launcher;

import java.util.concurrent.TimeUnit;

/**
 * How a device loop whose consumers are all caught up stops looking every few microseconds, and how it is
 * woken. After {@link Times#quietNanos} without work, the loop arms the publish bell of each port it serves and,
 * if still no frame waits on any of them, dozes: it parks until a publish for one of those ports rings the bell and
 * unparks it (a resume or a new listener unparks it too), polling every port in full only once per
 * {@link Times#fullPassNanos} (a round a listener thread finished, an armed round to enqueue). The launcher's
 * watchdog looks at the dozing loops' ports once per {@link Times#lookNanos} as well, a safety net that wakes a
 * loop with frames waiting: with every publish ringing, it finds none. So an idle service wakes about once a
 * second in all, whatever its number of devices and channels.
 *
 * <p>The trade: the first frame after a quiet period of more than {@link Times#quietNanos} waits for its loop
 * thread to be unparked (the publishing thread does it, tens of microseconds, more on a busy machine) and for
 * that loop's first pass over its ports; frames that follow one another within {@link Times#quietNanos} never
 * wait for a doze.
 *
 * <p>One instance per device loop, its loop thread's; the looks are the watchdog's ({@link DozeWatch}).
 */
final class Doze {

    /**
     * The doze's times.
     *
     * @param quietNanos    how long a device loop finds no work before it dozes
     * @param lookNanos     how often the watchdog looks at the dozing loops' ports (the safety net)
     * @param fullPassNanos how often a dozing loop polls every port in full
     */
    record Times(long quietNanos, long lookNanos, long fullPassNanos) {

        /** 100 ms quiet, a look a second, a full pass every 10 s. */
        static final Times DEFAULT = new Times(TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.SECONDS.toNanos(1),
                TimeUnit.SECONDS.toNanos(10));

        Times {
            if (quietNanos < 0 || lookNanos <= 0 || fullPassNanos <= 0) {
                throw new IllegalArgumentException("doze times: quiet >= 0, look and full pass > 0; were " + quietNanos + ", "
                        + lookNanos + ", " + fullPassNanos + " ns");
            }
        }
    }

    private final boolean enabled;
    private final Times times;
    private long quietSince = System.nanoTime();

    Doze(boolean enabled, Times times) {
        this.enabled = enabled;
        this.times = times;
    }

    /** After a pass that found {@code work} frames: whether the loop has been quiet long enough to doze. */
    boolean quiet(int work, long nowNanos) {
        if (work > 0) {
            quietSince = nowNanos;
            return false;
        }
        return enabled && nowNanos - quietSince >= times.quietNanos();
    }

    /** The loop is awake again: its quiet period restarts now. */
    void awake(long nowNanos) {
        quietSince = nowNanos;
    }

    /** The longest park of a dozing loop: it polls every port in full at least this often. */
    long fullPassNanos() {
        return times.fullPassNanos();
    }
}
