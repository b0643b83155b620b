package io.seqlink.ucx.link;

/**
 * The registered memory of a link, the same on both hosts (both little-endian; the handshake checks).
 *
 * <pre>
 *  receiver's landing region (the sender writes it with puts)
 *  +---------------------------- 128 B control line ----------------------------+
 *  | 0 sent_seq: highest link sequence whose slot is complete here (put after a flush)
 *  | 8 sender_beat: the sender's heartbeat counter                                |
 *  +-----------------------------------------------------------------------------+
 *  | ring: window slots of stride bytes; link sequence s in slot (s - 1) % window |
 *  +-----------------------------------------------------------------------------+
 *
 *  sender's region (the receiver writes its status line with puts)
 *  +---------------------------- 128 B status line -----------------------------+
 *  | 0 received_seq: highest link sequence published into the receiver's channel |
 *  | 8 consumed_seq: highest link sequence every receiving consumer acknowledged  |
 *  |                 (the credit: the sender may reuse slots up to it + window)   |
 *  | 16 receiver_beat: the receiver's heartbeat counter                           |
 *  +-----------------------------------------------------------------------------+
 *  | send ring: the same slot layout; a slot is put whole (header + length bytes) |
 *  +-----------------------------------------------------------------------------+
 *
 *  slot: | 0 stamp (link sequence) | 8 length | 16 source sequence | .. 64 payload ... |
 * </pre>
 */
public final class LinkLayout {

    public static final int LINE = 128;

    /** Receiver control line. */
    public static final int SENT_SEQ = 0;
    public static final int SENDER_BEAT = 8;

    /** Sender status line. */
    public static final int RECEIVED_SEQ = 0;
    public static final int CONSUMED_SEQ = 8;
    public static final int RECEIVER_BEAT = 16;
    public static final int STATUS_BYTES = 24;

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

    /** Bytes of a region with its line and {@code window} slots of {@code stride}. */
    public static long regionBytes(int window, long stride) {
        return LINE + window * stride;
    }

    /** Offset of link sequence {@code s}'s slot in a region of {@code window} slots. */
    public static long slotOffset(long s, int window, long stride) {
        return LINE + ((s - 1) % window) * stride;
    }
}
