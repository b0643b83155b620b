package io.seqlink.backend;

/** The two implementations of the backend seam. */
public enum BackendKind {
    /** GPUs through the CUDA driver API (JCuda). */
    CUDA,
    /** Pure Java: off-heap memory, ordered executors as streams, a simulated topology. */
    EMULATED
}
