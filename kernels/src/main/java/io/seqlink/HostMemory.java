package io.seqlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How much host memory could still be pinned: {@code MemAvailable} of {@code /proc/meminfo} (the memory
 * the kernel can hand out without swapping, which is what page-locked memory needs), else the JVM's view
 * of free physical memory; {@code -1} where neither is known. Read on each call; safe from any thread.
 */
final class HostMemory {

    private static final Path MEMINFO = Path.of("/proc/meminfo");

    private HostMemory() {
    }

    /** Bytes of host memory available, or {@code -1} when unknown. */
    static long availableBytes() {
        try {
            List<String> lines = Files.readAllLines(MEMINFO);
            for (String line : lines) {
                if (line.startsWith("MemAvailable:")) {
                    String[] parts = line.trim().split("\\s+");
                    return Long.parseLong(parts[1]) * 1024; // in kB
                }
            }
        } catch (IOException | RuntimeException ex) {
            // not Linux, or /proc is not mounted: ask the JVM
        }
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getFreeMemorySize() : -1;
    }
}
