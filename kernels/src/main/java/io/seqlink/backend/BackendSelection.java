package io.seqlink.backend;

/** Which backend to open. */
public enum BackendSelection {
    /** CUDA when a driver and a device are present, else emulated, saying why in one log line (the default). */
    AUTO,
    /** CUDA, or fail at startup. */
    CUDA,
    /** The emulated backend, GPU or not. */
    EMULATED
}
