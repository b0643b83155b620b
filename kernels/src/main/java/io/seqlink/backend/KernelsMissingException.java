package io.seqlink.backend;

import io.seqlink.error.SeqlinkException;

/** The CUDA backend found no compiled kernels on the classpath (the build that made them ran without nvcc). */
public class KernelsMissingException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    private final String resource;

    public KernelsMissingException(String resource) {
        this(resource, "The seqlink CUDA kernels are missing: no classpath resource '" + resource + "'. The seqlink-kernels jar "
                + "was built without nvcc. Rebuild it on a machine with the CUDA toolkit (nvcc on PATH, or NVCC=/path/to/nvcc), "
                + "or run on the emulated backend (seqlink.backend=emulated; without Spring: BackendSelection.EMULATED).");
    }

    /** Kernels of {@code resource} are missing; {@code message} says whose they are and the fix. */
    public KernelsMissingException(String resource, String message) {
        super(message);
        this.resource = resource;
    }

    public String resource() {
        return resource;
    }
}
