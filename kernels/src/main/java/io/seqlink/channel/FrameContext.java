package io.seqlink.channel;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.layout.SlotHeader;
import org.jspecify.annotations.Nullable;

/**
 * A trace context carried in a frame's header (not its payload): a W3C trace context in binary form, the
 * 128-bit trace id, the 64-bit parent span id and the trace flags. A producer sets one and hands it to
 * {@link PublishChannel#context(FrameContext)} or {@link PublishChannel#offer(java.nio.ByteBuffer, FrameContext)};
 * a listener copies a frame's into one with {@link Frame#context(FrameContext)}. A mutable holder meant to be
 * reused: nothing in it allocates but {@link #traceparent()}.
 *
 * <p>Threading: not thread-safe; one thread uses an instance at a time (keep one per thread, or one per call).
 */
public final class FrameContext {

    private static final String HEX = "0123456789abcdef";

    private long traceIdHigh;
    private long traceIdLow;
    private long spanId;
    private int flags;
    private boolean present;

    /** Sets the context; a trace id or span id of zero is invalid in W3C's format and leaves the context absent. */
    public FrameContext set(long traceIdHigh, long traceIdLow, long spanId, int flags) {
        this.traceIdHigh = traceIdHigh;
        this.traceIdLow = traceIdLow;
        this.spanId = spanId;
        this.flags = flags & 0xff;
        this.present = (traceIdHigh != 0 || traceIdLow != 0) && spanId != 0;
        return this;
    }

    /** Makes the context absent: a frame published with it carries none. */
    public FrameContext clear() {
        present = false;
        traceIdHigh = 0;
        traceIdLow = 0;
        spanId = 0;
        flags = 0;
        return this;
    }

    /** Whether a context is set. */
    public boolean isPresent() {
        return present;
    }

    public long traceIdHigh() {
        return traceIdHigh;
    }

    public long traceIdLow() {
        return traceIdLow;
    }

    public long spanId() {
        return spanId;
    }

    /** The W3C trace flags (bit 0: sampled). */
    public int flags() {
        return flags;
    }

    /**
     * Sets the context from the binary form a slot header carries ({@link SlotHeader#CONTEXT} onward), the header at
     * {@code headerOffset} of {@code memory}: returns whether it carries one; otherwise the context is absent. Plain
     * reads: the caller reads a frame whose publication it acquired and checks that the slot still holds it. Allocates
     * nothing. The one decoding of those words, for seqlink's readers of slots in host memory; a listener reads its
     * frame's context with {@link Frame#context(FrameContext)}.
     */
    public boolean setFromHeader(MappedBuffer memory, long headerOffset) {
        if (memory.getPlain(headerOffset + SlotHeader.CONTEXT) != SlotHeader.CONTEXT_W3C) {
            clear();
            return false;
        }
        set(memory.getPlain(headerOffset + SlotHeader.TRACE_ID_HIGH), memory.getPlain(headerOffset + SlotHeader.TRACE_ID_LOW),
                memory.getPlain(headerOffset + SlotHeader.SPAN_ID), (int) memory.getPlain(headerOffset + SlotHeader.TRACE_FLAGS));
        return present;
    }

    /**
     * Sets the context from a W3C {@code traceparent} header value ({@code 00-<32 hex>-<16 hex>-<2 hex>}; a later
     * version's longer value is read by its first four fields). Returns whether it was one; otherwise the context is
     * absent. Allocates nothing.
     */
    public boolean setTraceparent(CharSequence value) {
        clear();
        if (value.length() < 55 || value.charAt(2) != '-' || value.charAt(35) != '-' || value.charAt(52) != '-'
                || (value.length() > 55 && value.charAt(55) != '-')) {
            return false;
        }
        int version = hex(value, 0, 2);
        if (version < 0 || version == 0xff || (version == 0 && value.length() != 55)) {
            return false;
        }
        long high = 0;
        long low = 0;
        long span = 0;
        for (int i = 0; i < 16; i++) {
            int h = hex(value, 3 + i, 1);
            int l = hex(value, 19 + i, 1);
            int sp = hex(value, 36 + i, 1);
            if (h < 0 || l < 0 || sp < 0) {
                return false;
            }
            high = high << 4 | h;
            low = low << 4 | l;
            span = span << 4 | sp;
        }
        int f = hex(value, 53, 2);
        if (f < 0) {
            return false;
        }
        set(high, low, span, f);
        return present;
    }

    /** The W3C {@code traceparent} header value of this context, or {@code null} when it is absent. */
    public @Nullable String traceparent() {
        if (!present) {
            return null;
        }
        StringBuilder b = new StringBuilder(55).append("00-");
        appendHex(b, traceIdHigh, 16);
        appendHex(b, traceIdLow, 16);
        b.append('-');
        appendHex(b, spanId, 16);
        b.append('-');
        appendHex(b, flags, 2);
        return b.toString();
    }

    /** The trace id as 32 lowercase hex digits, or {@code null} when the context is absent. */
    public @Nullable String traceIdHex() {
        if (!present) {
            return null;
        }
        StringBuilder b = new StringBuilder(32);
        appendHex(b, traceIdHigh, 16);
        appendHex(b, traceIdLow, 16);
        return b.toString();
    }

    /** The span id as 16 lowercase hex digits, or {@code null} when the context is absent. */
    public @Nullable String spanIdHex() {
        if (!present) {
            return null;
        }
        StringBuilder b = new StringBuilder(16);
        appendHex(b, spanId, 16);
        return b.toString();
    }

    private static int hex(CharSequence s, int from, int digits) {
        int v = 0;
        for (int i = from; i < from + digits; i++) {
            char c = s.charAt(i);
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0) {
                return -1;
            }
            v = v << 4 | d;
        }
        return v;
    }

    private static void appendHex(StringBuilder b, long v, int digits) {
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            b.append(HEX.charAt((int) (v >>> shift) & 0xf));
        }
    }

    @Override
    public String toString() {
        return present ? "FrameContext[" + traceparent() + "]" : "FrameContext[absent]";
    }
}
