package io.seqlink.bench;

import io.seqlink.backend.Memory;

/** Allocation sizes: whole 128-byte lines, the SPI's alignment unit, whatever the payload needs. */
final class Alloc {

    private Alloc() {
    }

    /**
     * {@code bytes} rounded up to a multiple of {@link Memory#ALIGNMENT}. The emulated backend cuts
     * each region to whole lines and then fails a request that is not a multiple of 128 bytes
     * (reported to the foundation's owner); a GPU allocation has that granularity anyway.
     */
    static long lines(long bytes) {
        return (bytes + Memory.ALIGNMENT - 1) / Memory.ALIGNMENT * Memory.ALIGNMENT;
    }
}
