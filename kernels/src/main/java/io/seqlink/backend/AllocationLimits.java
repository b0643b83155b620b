package io.seqlink.backend;

/**
 * What one backend can allocate, for checking a channel before anything is allocated.
 *
 * @param maxDeviceBytes   the largest single allocation of device memory
 * @param maxMappedBytes   the largest single allocation of pinned, mapped host memory (the host views it as
 *                         one {@link java.nio.ByteBuffer}, indexed by {@code int})
 * @param directBytesFree  bytes of the JVM's direct memory still free for allocations that live there (the
 *                         emulated backend keeps all its memory there), {@link Long#MAX_VALUE} when none do
 * @param directBytesMax   the JVM's direct memory limit ({@code -XX:MaxDirectMemorySize}, by default the heap
 *                         limit), {@link Long#MAX_VALUE} when no allocation lives there
 * @param where            where the memory lives, in words, for messages
 */
public record AllocationLimits(long maxDeviceBytes, long maxMappedBytes, long directBytesFree, long directBytesMax,
        String where) {

    /** The most bytes a {@link java.nio.ByteBuffer} view of mapped memory may span. */
    public static final long MAX_BUFFER_BYTES = Integer.MAX_VALUE;

    /** Whether device and mapped memory are carved out of the JVM's direct memory. */
    public boolean inDirectMemory() {
        return directBytesMax != Long.MAX_VALUE;
    }
}
