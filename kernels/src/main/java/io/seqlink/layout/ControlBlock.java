package io.seqlink.layout;

/**
 * Layout of a channel's control block: 64 bytes of words in a 128-byte allocation of its own, apart
 * from the data (the control plane is never memcpy'd together with frames).
 *
 * <pre>
 *   0                   8                   16                                          64        128
 *   +-------------------+-------------------+-------------------------------------------+---------+
 *   | publish_seq  u64  | writer_busy  u64  | reserved (6 x u64)                        | padding |
 *   +-------------------+-------------------+-------------------------------------------+---------+
 * </pre>
 *
 * <ul>
 *   <li>{@code publish_seq}: the sequence of the last published frame. Frames are numbered from 1;
 *       0 means nothing was published. Only the producer writes it, by one release add per publish.</li>
 *   <li>{@code writer_busy}: the highest sequence whose slot the producer may be writing now. Every
 *       publish sets it to {@code publish_seq + max_batch} (the producer claims at most
 *       {@code max_batch} frames between publishes), before any of those frames is written. A reader
 *       that read frame {@code f} and then (acquire) sees {@code writer_busy < f + slots} knows the
 *       frame was not overwritten while it read.</li>
 * </ul>
 *
 * <p>The producer's host mirror (pinned, host-mapped) uses the same offsets but holds only
 * {@code publish_seq}: the publish step stores it there last, after every other effect of the publish,
 * so the host sees progress without touching the device. Push transports keep a replica of the whole
 * block on the consumer's side, written by the producer with the same orderings. (The source article's
 * {@code batch_size} word was written and never read; it is gone.)
 */
public final class ControlBlock {

    public static final int PUBLISH_SEQ = 0;
    public static final int WRITER_BUSY = 8;
    /** Words in use; the rest of the 64 bytes are reserved. */
    public static final int USED_BYTES = 64;
    /** Size of the allocation: one 128-byte line. */
    public static final int BYTES = 128;

    private ControlBlock() {
    }
}
