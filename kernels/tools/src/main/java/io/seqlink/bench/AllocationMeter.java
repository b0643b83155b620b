package io.seqlink.bench;

import java.lang.management.ManagementFactory;
import org.jspecify.annotations.Nullable;

/**
 * Bytes the calling thread has allocated on the Java heap, from HotSpot's per-thread counter
 * ({@code com.sun.management.ThreadMXBean}). Read it before and after a timed loop, on the thread
 * that runs the loop, to prove the loop allocates nothing per frame.
 */
final class AllocationMeter {

    private static final com.sun.management.@Nullable ThreadMXBean BEAN = bean();

    private AllocationMeter() {
    }

    private static com.sun.management.@Nullable ThreadMXBean bean() {
        try {
            if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean hs
                    && hs.isThreadAllocatedMemorySupported()) {
                hs.setThreadAllocatedMemoryEnabled(true);
                return hs;
            }
        } catch (RuntimeException | LinkageError ex) {
            // no jdk.management module (a trimmed runtime): allocation is then reported as unknown
        }
        return null;
    }

    static boolean available() {
        return BEAN != null;
    }

    /** Bytes this thread allocated so far, or -1 when the JVM cannot tell. */
    static long current() {
        return BEAN == null ? -1 : BEAN.getCurrentThreadAllocatedBytes();
    }

    /** Bytes per frame between two readings, or NaN when unknown. */
    static double perFrame(long before, long after, long frames) {
        if (before < 0 || after < 0 || frames <= 0) {
            return Double.NaN;
        }
        return (after - before) / (double) frames;
    }
}
