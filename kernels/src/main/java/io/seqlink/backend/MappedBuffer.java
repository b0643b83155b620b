package io.seqlink.backend;

import java.nio.ByteBuffer;

/**
 * Pinned host memory that devices address directly ({@code cuMemHostAlloc} with
 * {@code CU_MEMHOSTALLOC_DEVICEMAP}). The host reads the words devices write here—publish and ack
 * mirrors, round flags, descriptors—without touching device memory or the link.
 *
 * <p>Word access is by byte offset, which must be a multiple of 8.
 */
public interface MappedBuffer extends Memory {

    /** Acquire read of the 64-bit word at {@code offset}: later host reads see what preceded its write. */
    long getAcquire(long offset);

    /** Plain-ordered read of a word only this thread or an earlier happens-before writer wrote. */
    long getPlain(long offset);

    /** Release store: every earlier host write is visible before the word is. */
    void setRelease(long offset, long value);

    /** Plain store, for words published later by a release store or by stream order. */
    void setPlain(long offset, long value);

    /**
     * Raises the word at {@code offset} to at least {@code value} by compare-and-set (a locked
     * read-modify-write of host memory, atomic against devices' posted writes, which are coherent DMA):
     * never lowers it. Returns the word's value before. Host-side only; no device ever does a
     * read-modify-write of host memory.
     */
    long raiseTo(long offset, long value);

    /**
     * A view of the whole block for bulk host reads and writes. The view is created once; callers
     * use absolute get/put and must not change its position or limit.
     */
    ByteBuffer byteBuffer();
}
