package io.seqlink.sample.pipeline;

/**
 * Byte layouts of the sample's two payloads, both little-endian, each behind a 64-byte header so the
 * float data starts 64-byte aligned in the slot.
 *
 * <pre>
 *  frame (channel "frames", written on the producer device)
 *   0  frame sequence          the frames channel's sequence of this frame
 *   8  seed                    the synthetic image is the pattern of this seed
 *  16  pixels                  how many float32 values follow the header
 *  24  input checksum          checksum of the float32 values, computed by the producer device
 *  64  float32[pixels]         the normalised image: (p / 255 - mean) / std
 *
 *  result (channel "results-d", written on inference device d)
 *   0  frame sequence          copied from the frame
 *   8  seed                    copied from the frame
 *  16  pixels                  copied from the frame
 *  24  input checksum          copied from the frame (as the producer computed it)
 *  32  received checksum       checksum of the float32 values as device d received them
 *  40  output checksum         checksum of the result vector, computed on device d
 *  48  device                  d
 *  64  float32[classes]        y = W x
 * </pre>
 */
public final class FrameLayout {

    public static final int HEADER_BYTES = 64;

    public static final int SEQUENCE = 0;
    public static final int SEED = 8;
    public static final int PIXELS = 16;
    public static final int INPUT_CHECKSUM = 24;
    /** Bytes of the frame header that the inference device copies into its result. */
    public static final int COPIED_HEADER_BYTES = 32;

    public static final int RECEIVED_CHECKSUM = 32;
    public static final int OUTPUT_CHECKSUM = 40;
    public static final int DEVICE = 48;

    private FrameLayout() {
    }

    /** Payload bytes of a frame of {@code pixels}. */
    public static int frameBytes(int pixels) {
        return HEADER_BYTES + 4 * pixels;
    }

    /** Payload bytes of a result of {@code classes}. */
    public static int resultBytes(int classes) {
        return HEADER_BYTES + 4 * classes;
    }
}
