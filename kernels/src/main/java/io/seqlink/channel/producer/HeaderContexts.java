package io.seqlink.channel.producer;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.channel.FrameContext;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;

/**
 * The trace-context words of the slot headers ({@link SlotHeader#CONTEXT} onward) in the memory the host writes frames
 * into (the staging ring, or the ring itself when it is in host memory): writes them for a claimed frame, keeps a frame
 * published without a context from carrying the one an earlier frame of its slot left there (it clears the context
 * word only of a slot whose header holds one, so a channel that never traces never writes a context word), and reads
 * them back for a published frame, whose words are there whatever ring the device reads: a device listener's frames
 * are on the device, their header words here on the host.
 *
 * <p>Threading: {@link #write} and {@link #settle} are called by the thread holding {@code sequence}'s claim, which owns
 * the slot's header words and its entry here until its commit (the sequencer orders one lap's claim after the last
 * lap's commit); {@link #read} by any thread, for a frame whose commit happened-before the call (its caller checks that
 * the slot still holds it).
 */
final class HeaderContexts {

    private final MappedBuffer headers;
    private final RingGeometry geometry;
    /** Per slot: the sequence whose context the header holds, {@code 0} when its context word is zero. */
    private final long[] holder;

    HeaderContexts(MappedBuffer headers, RingGeometry geometry) {
        this.headers = headers;
        this.geometry = geometry;
        this.holder = new long[geometry.slots()];
    }

    /** Writes {@code context} into {@code sequence}'s header, or clears it there when it is absent. */
    void write(long sequence, FrameContext context) {
        int slot = geometry.slotOf(sequence);
        long offset = geometry.offsetOf(sequence);
        if (!context.isPresent()) {
            if (holder[slot] != 0) {
                headers.setPlain(offset + SlotHeader.CONTEXT, 0);
                holder[slot] = -sequence; // cleared for this frame: settle reports the change
            }
            return;
        }
        headers.setPlain(offset + SlotHeader.TRACE_ID_HIGH, context.traceIdHigh());
        headers.setPlain(offset + SlotHeader.TRACE_ID_LOW, context.traceIdLow());
        headers.setPlain(offset + SlotHeader.SPAN_ID, context.spanId());
        headers.setPlain(offset + SlotHeader.TRACE_FLAGS, context.flags());
        headers.setPlain(offset + SlotHeader.CONTEXT, SlotHeader.CONTEXT_W3C);
        holder[slot] = sequence;
    }

    /**
     * Before {@code sequence}'s commit: clears a context an earlier frame of the slot left in its header. Returns
     * whether the header's context words changed for this frame (written or cleared), so a frame a kernel wrote into a
     * ring elsewhere needs them copied there. Nothing is written, and {@code false} returned, for a slot whose header
     * holds no context.
     */
    boolean settle(long sequence) {
        int slot = geometry.slotOf(sequence);
        long held = holder[slot];
        if (held == 0) {
            return false;
        }
        if (held == sequence) {
            return true;
        }
        if (held != -sequence) {
            headers.setPlain(geometry.offsetOf(sequence) + SlotHeader.CONTEXT, 0);
        }
        holder[slot] = 0;
        return true;
    }

    /**
     * Copies the context words of {@code sequence}'s slot into {@code into} ({@link FrameContext#setFromHeader}, the one
     * decoding of them); returns whether they hold a context (otherwise {@code into} is cleared). Plain reads: what they are worth, the caller decides (see
     * {@link Producer#context}). Allocates nothing.
     */
    boolean read(long sequence, FrameContext into) {
        return into.setFromHeader(headers, geometry.offsetOf(sequence));
    }
}
