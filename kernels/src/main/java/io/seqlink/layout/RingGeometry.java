package io.seqlink.layout;

/**
 * The shape of a ring of slots: {@code slots} slots of {@code stride} bytes, each a
 * {@link SlotHeader} followed by up to {@code slotBytes} of payload, the stride rounded up to 128
 * bytes so that every slot starts on its own line.
 *
 * <p>Frame {@code s} (numbered from 1) lives in slot {@code (s - 1) % slots}; a consumer that fell
 * behind still finds any frame not yet overwritten at the same place.
 *
 * @param slots     number of slots, at least 2
 * @param slotBytes largest payload a slot holds
 * @param stride    bytes from one slot to the next
 */
public record RingGeometry(int slots, long slotBytes, long stride) {

    public static final int MIN_SLOTS = 2;
    public static final int MAX_SLOTS = 1 << 20;
    /**
     * The largest ring, 2 GiB - 1 B: the producer's staging ring (and a host listener's host ring) is
     * pinned host memory the host addresses as one {@link java.nio.ByteBuffer}, indexed by {@code int}.
     * A backend may allow less ({@link io.seqlink.backend.AllocationLimits}).
     */
    public static final long MAX_RING_BYTES = Integer.MAX_VALUE;
    /** The largest slot: {@value #MIN_SLOTS} of them fill {@link #MAX_RING_BYTES}; 1,073,741,632 B (1 GiB - 448 B). */
    public static final long MAX_SLOT_BYTES = (MAX_RING_BYTES / MIN_SLOTS & ~127L) - SlotHeader.BYTES;

    public RingGeometry {
        if (slots < MIN_SLOTS || slots > MAX_SLOTS) {
            throw new IllegalArgumentException("slots must be between " + MIN_SLOTS + " and " + MAX_SLOTS + ", was " + slots);
        }
        if (slotBytes < 1 || slotBytes > MAX_SLOT_BYTES) {
            throw new IllegalArgumentException("slotBytes must be between 1 and " + MAX_SLOT_BYTES + ", was " + slotBytes);
        }
        if (stride != strideFor(slotBytes)) {
            throw new IllegalArgumentException("stride must be " + strideFor(slotBytes) + " for slotBytes " + slotBytes + ", was " + stride);
        }
    }

    public static RingGeometry of(int slots, long slotBytes) {
        return new RingGeometry(slots, slotBytes, strideFor(slotBytes));
    }

    /** Header plus payload, rounded up to a multiple of 128. */
    public static long strideFor(long slotBytes) {
        return (SlotHeader.BYTES + slotBytes + 127) & ~127L;
    }

    /** Bytes of the whole ring. */
    /**
     * Words of the armed rounds' doorbell ring for this ring: two laps ({@code 2 x slots}), so a host that arms frame
     * {@code s} after seeing {@code s - 1} published knows the previous lap's store to word {@code s % n} landed.
     */
    public int doorbellWords() {
        return 2 * slots;
    }

    public long ringBytes() {
        return stride * slots;
    }

    /**
     * Slot index of frame {@code sequence} (sequences start at 1). A power-of-two ring takes a mask
     * instead of a 64-bit division: this runs several times per frame on the hot path.
     */
    public int slotOf(long sequence) {
        int s = slots;
        return (s & (s - 1)) == 0 ? (int) ((sequence - 1) & (s - 1)) : (int) ((sequence - 1) % s);
    }

    /**
     * Index of frame {@code sequence}'s entry in a per-slot table of words (its publish time): consecutive slots 8
     * entries (a 64-byte line) apart when the ring allows it, so a consumer reading the entry of frame {@code s} does
     * not pull away the line the producer writes the entry of {@code s + 1} into.
     */
    public int spreadIndexOf(long sequence) {
        int slot = slotOf(sequence);
        return (slots & 7) == 0 ? (slot & 7) * (slots >>> 3) + (slot >>> 3) : slot;
    }

    /** Byte offset of the slot holding {@code sequence}. */
    public long offsetOf(long sequence) {
        return slotOf(sequence) * stride;
    }

    /** Byte offset of the payload of {@code sequence}. */
    public long payloadOffsetOf(long sequence) {
        return offsetOf(sequence) + SlotHeader.BYTES;
    }
}
