package io.seqlink.layout;

/**
 * Layout of the header in front of every slot's payload.
 *
 * <pre>
 *   0              8              16             24                                  64
 *   +--------------+--------------+--------------+-----------------------------------+------------------ - -
 *   | stamp   u64  | length  u64  | context  u64 | trace context (5 words)            | payload (slotBytes)
 *   +--------------+--------------+--------------+-----------------------------------+------------------ - -
 * </pre>
 *
 * <p>{@code stamp} is the sequence of the frame in the slot, written by the publish step before its
 * release add, so a reader can check it read the frame it meant to. {@code length} is the payload
 * length, written together with the payload; a negative length ({@link #PADDING_LENGTH}) marks padding:
 * the sequence of a claim given back, which consumers acknowledge and never deliver.
 *
 * <p>{@code context} says whether the frame carries a trace context: {@code 0} (none: the word of every frame
 * published without one, so a channel that never traces never writes the words after it) or
 * {@link #CONTEXT_W3C} (a W3C trace context in binary form follows: {@link #TRACE_ID_HIGH}, {@link #TRACE_ID_LOW},
 * {@link #SPAN_ID}, {@link #TRACE_FLAGS}, each a little-endian u64; the last word of the header is reserved).
 * The producing host thread writes these words with the frame (into the staging slot, or the ring's own slot
 * when the ring is in host memory); the host commit's copy and every whole-slot copy after it (replica pushes,
 * staging to a host listener's ring) carry them to the consumer with the frame.
 */
public final class SlotHeader {

    public static final int STAMP = 0;
    public static final int LENGTH = 8;
    /** The context word: {@code 0} or {@link #CONTEXT_W3C}. */
    public static final int CONTEXT = 16;
    /** The context word of a frame carrying a W3C trace context (version {@code 00}) in the next words. */
    public static final long CONTEXT_W3C = 1;
    /** The trace id's high 64 bits (its first 16 hex digits). */
    public static final int TRACE_ID_HIGH = 24;
    /** The trace id's low 64 bits. */
    public static final int TRACE_ID_LOW = 32;
    /** The parent span id. */
    public static final int SPAN_ID = 40;
    /** The trace flags (bit 0: sampled) in the low byte. */
    public static final int TRACE_FLAGS = 48;
    /** Bytes of the context words, from {@link #CONTEXT}. */
    public static final int CONTEXT_BYTES = 40;
    /** Bytes before the payload. */
    public static final int BYTES = 64;
    /** The length word of padding (any negative length is padding): {@code seqlink::device::abandoned} on the device. */
    public static final int PADDING_LENGTH = -1;

    private SlotHeader() {
    }
}
