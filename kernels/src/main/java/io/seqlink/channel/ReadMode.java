package io.seqlink.channel;

/** How a consumer gets at the frames. */
public enum ReadMode {
    /** The consume step copies the ready frames into a ring on the consumer's device (the default). */
    COPY,
    /**
     * Listeners read the frames where they are (peer pointers); no copy. Only with
     * {@link Delivery#LOSSLESS}: a frame read in place under {@code LATEST} could be overwritten mid-read.
     */
    DIRECT
}
