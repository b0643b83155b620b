package io.seqlink.soak;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.seqlink.backend.Backend;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Samples, over a run, what must stay flat: Java heap (used now, and used after the last collection,
 * which is what grows when something leaks), native memory held by direct buffers (where the emulated
 * backend keeps "device" memory and where pinned staging lives), device memory in use as the driver
 * reports it ({@code Device.memoryInfo}), and the frames published so far.
 */
final class MemorySampler {

    /** One sample (in the JSON report as {@code ms, published, heapUsed, heapAfterGc, directBytes, directBuffers, deviceUsed}). */
    record Sample(@JsonProperty("ms") long elapsedMillis, long published, long heapUsed, long heapAfterGc, long directBytes,
            @JsonProperty("directBuffers") long directCount, long deviceUsed) {
    }

    private final Backend backend;
    private final LongSupplier published;
    private final long startNanos = System.nanoTime();
    private final List<Sample> samples = new ArrayList<>();

    MemorySampler(Backend backend, LongSupplier published) {
        this.backend = backend;
        this.published = published;
    }

    synchronized Sample sample() {
        long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long afterGc = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                afterGc += pool.getCollectionUsage().getUsed();
            }
        }
        long direct = 0;
        long count = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                direct = pool.getMemoryUsed();
                count = pool.getCount();
            }
        }
        long deviceUsed = 0;
        for (int d = 0; d < backend.deviceCount(); d++) {
            var info = backend.device(d).memoryInfo();
            deviceUsed += info.totalBytes() - info.freeBytes();
        }
        Sample s = new Sample((System.nanoTime() - startNanos) / 1_000_000, published.getAsLong(), heapUsed, afterGc, direct,
                count, deviceUsed);
        samples.add(s);
        return s;
    }

    /**
     * The heap still reachable after full collections: what a leak grows. The per-sample figures
     * cannot show it when the run allocates so little that no collection ever runs (their after-GC
     * figure then stays 0), so the run measures this at its start and at its end.
     */
    long retainedHeap() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }
}
