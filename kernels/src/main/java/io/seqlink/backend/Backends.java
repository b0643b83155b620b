package io.seqlink.backend;

import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens the backend a {@link BackendSelection} asks for, falling back from CUDA to emulated under {@code AUTO}. */
public final class Backends {

    private static final Logger log = LoggerFactory.getLogger(Backends.class);

    /** The CUDA backend's provider, loaded by name: JCuda is optional. */
    public static final String CUDA_PROVIDER = "io.seqlink.backend.cuda.CudaBackendProvider";

    private Backends() {
    }

    /**
     * The backend that was opened and why.
     *
     * @param backend   the open backend
     * @param requested what was asked for
     * @param reason    why this backend, in one line
     */
    public record Choice(Backend backend, BackendSelection requested, String reason) {
    }

    public static Choice open(BackendSelection selection, EmulatedTopology emulated) {
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(emulated, "emulated");
        switch (selection) {
            case EMULATED:
                return new Choice(new EmulatedBackend(emulated), selection, "seqlink.backend=emulated");
            case CUDA: {
                BackendProvider provider = cudaProvider();
                if (provider == null) {
                    throw new BackendUnavailableException("seqlink.backend=cuda, but the CUDA backend is not on the classpath: "
                            + "add org.jcuda:jcuda and org.jcuda:jcuda-natives (the seqlink starter brings both), or set "
                            + "seqlink.backend=auto or emulated", null);
                }
                DriverDetection d = provider.detect();
                if (!d.usable()) {
                    throw new BackendUnavailableException("seqlink.backend=cuda, but no usable CUDA driver: " + d.summary()
                            + ". Install the NVIDIA driver (libcuda.so.1) and check that a GPU is visible (nvidia-smi), "
                            + "or set seqlink.backend=auto or emulated", d.cause());
                }
                return new Choice(provider.open(), selection, d.summary());
            }
            case AUTO:
            default: {
                BackendProvider provider = cudaProvider();
                DriverDetection d = provider == null
                        ? DriverDetection.unusable("JCuda is not on the classpath", null)
                        : provider.detect();
                if (d.usable()) {
                    try {
                        return new Choice(provider.open(), selection, d.summary());
                    } catch (RuntimeException ex) {
                        log.warn("seqlink: a CUDA driver answered ({}) but the cuda backend did not open ({}); using the "
                                + "emulated backend", d.summary(), ex.getMessage());
                        return new Choice(new EmulatedBackend(emulated), selection, "cuda backend failed to open: " + ex.getMessage());
                    }
                }
                log.warn("seqlink: no usable CUDA driver ({}); using the emulated backend with {} device(s)", d.summary(),
                        emulated.deviceCount());
                return new Choice(new EmulatedBackend(emulated), selection, "no usable CUDA driver: " + d.summary());
            }
        }
    }

    /** The CUDA backend's provider, or {@code null} when it cannot load here. */
    public static BackendProvider cudaProvider() {
        try {
            Class<?> type = Class.forName(CUDA_PROVIDER, true, Backends.class.getClassLoader());
            return (BackendProvider) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError ex) {
            return null;
        }
    }
}
