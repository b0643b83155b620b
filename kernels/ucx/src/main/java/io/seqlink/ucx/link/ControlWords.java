package io.seqlink.ucx.link;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.openucx.jucx.UcxUtils;

/**
 * Source buffers for the small control puts (a sequence, a heartbeat, a status line), used in turn.
 * A put's source must not change while the put is in flight; these puts are a few words, which UCX
 * sends by copy (short or bcopy protocol) when the call is made, and each buffer is reused only after
 * {@value #SLOTS} later puts. Owned by the link thread.
 */
final class ControlWords {

    private static final int SLOTS = 64;

    private final ByteBuffer words;
    private final long base;
    private final int slotBytes;
    private int next;

    ControlWords(int slotBytes) {
        this.slotBytes = (slotBytes + 7) & ~7;
        this.words = ByteBuffer.allocateDirect(SLOTS * this.slotBytes).order(ByteOrder.LITTLE_ENDIAN);
        this.base = UcxUtils.getAddress(words);
    }

    /** The next source buffer's offset, for {@link #put(int, int, long)} and {@link #address(int)}. */
    int claim() {
        int offset = next * slotBytes;
        next = (next + 1) % SLOTS;
        return offset;
    }

    void put(int slot, int word, long value) {
        words.putLong(slot + word, value);
    }

    long address(int slot) {
        return base + slot;
    }
}
