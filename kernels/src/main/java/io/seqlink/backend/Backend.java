package io.seqlink.backend;

/**
 * The seam to the hardware: devices, the links between them, and the link probe. Two
 * implementations: {@code cuda} (the CUDA driver API through JCuda) and {@code emulated} (pure Java,
 * the same protocol over off-heap memory). Everything above this seam—channels, the launcher, the
 * verifier, the Spring layer—is the same for both.
 */
public interface Backend extends AutoCloseable {

    BackendKind kind();

    /** One line for logs and health: driver, device count and names. */
    String description();

    int deviceCount();

    /** The device with this ordinal; throws {@link IllegalArgumentException} naming the valid range. */
    Device device(int ordinal);

    /**
     * The largest allocations this backend makes and the direct memory it has left, read now (a channel
     * is checked against them before anything is allocated). Per device, {@link Device#memoryInfo()}
     * says how much device memory is free.
     */
    AllocationLimits limits();

    /** What the driver reports for {@code accessor} reaching memory of {@code owner}. */
    LinkAttributes linkAttributes(int accessor, int owner);

    /**
     * Lets {@code accessor} address memory of {@code owner}. Idempotent; a no-op for the same device.
     * Throws {@link DeviceException} when the driver refuses.
     */
    void enablePeerAccess(int accessor, int owner);

    /**
     * Runs the link probe on {@code consumer} against memory of {@code producer}: a functional check,
     * dependent-chain latencies and throughput scaling. Peer access must be enabled.
     */
    ProbeMeasurement probe(int producer, int consumer, ProbePlan plan);

    /** Frees every context, stream and allocation this backend made. Idempotent. */
    @Override
    void close();
}
