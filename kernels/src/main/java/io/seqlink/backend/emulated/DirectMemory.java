package io.seqlink.backend.emulated;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/** The JVM's direct memory, where the emulated backend keeps every region: its limit and what is in use. */
final class DirectMemory {

    private DirectMemory() {
    }

    /** {@code -XX:MaxDirectMemorySize}, or the heap limit it defaults to. */
    static long max() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            long set = Long.parseLong(vm.getVMOption("MaxDirectMemorySize").getValue());
            if (set > 0) {
                return set;
            }
        } catch (RuntimeException | LinkageError ex) {
            // not a HotSpot JVM: the default below
        }
        return Runtime.getRuntime().maxMemory();
    }

    /** Bytes of direct buffers in use now. */
    static long used() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        return 0;
    }
}
