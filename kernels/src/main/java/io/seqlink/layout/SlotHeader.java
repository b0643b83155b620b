package io.seqlink.layout;

/**
 * Layout of the header in front of every slot's payload.
 *
 * <pre>
 *   0              8              16                                  64
 *   +--------------+--------------+-----------------------------------+------------------ - -
 *   | stamp   u64  | length  u64  | reserved                          | payload (slotBytes)
 *   +--------------+--------------+-----------------------------------+------------------ - -
 * </pre>
 *
 * <p>{@code stamp} is the sequence of the frame in the slot, written by the publish step before its
 * release add, so a reader can check it read the frame it meant to. {@code length} is the payload
 * length, written together with the payload; a negative length ({@link #PADDING_LENGTH}) marks padding:
 * the sequence of a claim given back, which consumers acknowledge and never deliver.
 */
public final class SlotHeader {

    public static final int STAMP = 0;
    public static final int LENGTH = 8;
    /** Bytes before the payload. */
    public static final int BYTES = 64;
    /** The length word of padding (any negative length is padding): {@code seqlink::device::abandoned} on the device. */
    public static final int PADDING_LENGTH = -1;

    private SlotHeader() {
    }
}
