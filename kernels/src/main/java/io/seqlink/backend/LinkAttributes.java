package io.seqlink.backend;

/**
 * What the driver says about one direction of a device pair: whether {@code accessor} can address
 * memory owned by {@code owner}, whether its atomics on that memory are native, and the link's
 * performance rank ({@code cuDeviceGetP2PAttribute}, queried per direction).
 */
public record LinkAttributes(int accessor, int owner, boolean accessSupported, boolean nativeAtomics, int performanceRank) {

    /** A device reaching its own memory. */
    public static LinkAttributes self(int device) {
        return new LinkAttributes(device, device, true, true, 0);
    }
}
