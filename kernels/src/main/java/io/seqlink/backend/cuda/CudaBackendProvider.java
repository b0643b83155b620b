package io.seqlink.backend.cuda;

import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.BackendUnavailableException;
import io.seqlink.backend.DriverDetection;

/**
 * Opens the CUDA backend; found by {@link java.util.ServiceLoader} (listed in seqlink-kernels'
 * {@code META-INF/services/io.seqlink.backend.BackendProvider}), and loading it touches no JCuda class,
 * so JCuda loads only when the driver is probed. {@link #detect()} probes the driver once per JVM,
 * whatever the number of provider instances, and never throws. Safe from any thread.
 */
public final class CudaBackendProvider implements BackendProvider {

    public CudaBackendProvider() {
    }

    @Override
    public BackendKind kind() {
        return BackendKind.CUDA;
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
