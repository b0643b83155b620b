package io.seqlink.ucx.link;

/**
 * The registered rings of a link, the same slot layout on both hosts (both little-endian; the
 * handshake checks). Nothing writes into the other host's memory: frames cross as active messages
 * ({@link LinkMessages#FRAMES}) that the receiver lands in its own ring.
 *
 * <pre>
 *  sender's send ring (the staging thread fills it; the link thread sends from it)
 *  +-------------------------------------------------------------------------------+
 *  | window slots of stride bytes; link sequence s in slot (s - 1) % window          |
 *  +-------------------------------------------------------------------------------+
 *
 *  receiver's landing ring (its own UCX receives land here; stride = the sender's, from the handshake)
 *  +-------------------------------------------------------------------------------+
 *  | window slots of stride bytes; link sequence s in slot (s - 1) % window          |
 *  +-------------------------------------------------------------------------------+
 *
 *  slot: | 0 stamp (link sequence) | 8 length | 16 source sequence | .. 64 payload ... |
 *
 *  a batch s..t (contiguous in both rings, never across either ring's end) crosses as one message:
 *  | slot s (whole stride) | slot s+1 | ... | slot t (header + length bytes) |
 * </pre>
 */
public final class LinkLayout {

    /** Alignment of a stride. */
    public static final int LINE = 128;

    /** Slot header. */
    public static final int STAMP = 0;
    public static final int LENGTH = 8;
    public static final int SOURCE_SEQ = 16;
    public static final int HEADER = 64;

    private LinkLayout() {
    }

    /** A slot's stride for payloads of up to {@code slotBytes}: header plus payload, rounded up to a line. */
    public static long strideFor(long slotBytes) {
        return (HEADER + slotBytes + LINE - 1) / LINE * LINE;
    }

    /** Bytes of a ring of {@code window} slots of {@code stride}. */
    public static long regionBytes(int window, long stride) {
        return window * stride;
    }

    /** Offset of link sequence {@code s}'s slot in a ring of {@code window} slots. */
    public static long slotOffset(long s, int window, long stride) {
        return ((s - 1) % window) * stride;
    }

    /** The last sequence from {@code s} on before a ring of {@code window} slots wraps. */
    static long lastBeforeWrap(long s, int window) {
        return s + (window - 1 - (s - 1) % window);
    }
}
