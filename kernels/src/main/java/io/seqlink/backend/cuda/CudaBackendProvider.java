package io.seqlink.backend.cuda;

import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.BackendUnavailableException;
import io.seqlink.backend.DriverDetection;

/**
 * Opens the CUDA backend; found by name ({@link io.seqlink.backend.Backends#CUDA_PROVIDER}) so JCuda's
 * classes load only when CUDA is asked for. {@link #detect()} probes the driver once per JVM, whatever
 * the number of provider instances, and never throws.
 */
public final class CudaBackendProvider implements BackendProvider {

    public CudaBackendProvider() {
    }

    @Override
    public DriverDetection detect() {
        try {
            return DriverProbe.RESULT;
        } catch (LinkageError ex) {
            // DriverProbe itself could not initialise (JCuda's Java classes are missing)
            return DriverDetection.unusable("JCuda could not be loaded: " + ex, ex);
        }
    }

    @Override
    public Backend open() {
        DriverDetection d = detect();
        if (!d.usable()) {
            throw new BackendUnavailableException("the CUDA backend cannot open: " + d.summary(), d.cause());
        }
        return new CudaBackend(d.deviceCount());
    }
}
