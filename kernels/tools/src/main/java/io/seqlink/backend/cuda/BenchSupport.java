package io.seqlink.backend.cuda;

import java.lang.management.ManagementFactory;

/** An allocation meter and a bounded spin for the benchmark mains of this package. */
final class BenchSupport {

    private BenchSupport() {
    }

    /** Bytes the calling thread allocated so far (HotSpot's per-thread counter), or -1 where unavailable. */
    static long allocatedBytes() {
        try {
            java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
            if (bean instanceof com.sun.management.ThreadMXBean hs) {
                return hs.getCurrentThreadAllocatedBytes();
            }
        } catch (RuntimeException | LinkageError ex) {
            // no jdk.management: report unknown
        }
        return -1;
    }

    /** Spins until the word reaches {@code target}; throws after 10 s (a bug, never a legitimate wait). */
    static void awaitAtLeast(io.seqlink.backend.MappedBuffer mirror, long offset, long target, String what) {
        long deadline = 0;
        int n = 0;
        while (mirror.getAcquire(offset) < target) {
            if ((++n & 0xFFFF) == 0) {
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + 10_000_000_000L;
                } else if (now - deadline > 0) {
                    throw new IllegalStateException("waited 10 s for " + what + " to reach " + target + " (it is "
                            + mirror.getAcquire(offset) + ")");
                }
            }
            Thread.onSpinWait();
        }
    }
}
