package io.seqlink.backend;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the backend a {@link BackendSelection} asks for, falling back from CUDA to emulated under
 * {@code AUTO}. The implementations come from {@link BackendProvider}s: those the caller gives first,
 * then those on the class path ({@link ServiceLoader}); this class names none of them. Stateless: safe
 * from any thread.
 */
public final class Backends {

    private static final Logger log = LoggerFactory.getLogger(Backends.class);

    /** What to choose instead of a CUDA backend that cannot run: the property, and the same choice in the Java API. */
    private static final String OTHER_SELECTION = "set seqlink.backend=auto (the GPU when there is one, else emulated) or "
            + "seqlink.backend=emulated (without Spring: SeqlinkRuntime.builder().backend(BackendSelection.AUTO or EMULATED))";

    /** More service entries than any class path holds: the bound of {@link #discovered()}'s loop. */
    private static final int MAX_PROVIDER_ENTRIES = 64;

    private Backends() {
    }

    /**
     * The backend that was opened and why.
     *
     * @param backend   the open backend
     * @param requested what was asked for
     * @param reason    why this backend, in one calm line (what the runtime logs)
     * @param detail    the full finding behind {@code reason} (the driver probe's summary), for endpoints and DEBUG
     * @param cause     the failure that made {@code AUTO} fall back, or {@code null}
     */
    public record Choice(Backend backend, BackendSelection requested, String reason, String detail,
                         @Nullable Throwable cause) {
    }

    /** {@link #open(BackendSelection, List)} with the providers on the class path only. */
    public static Choice open(BackendSelection selection) {
        return open(selection, List.of());
    }

    /**
     * Opens a backend.
     *
     * @param selection what to open
     * @param given     providers that take precedence over the class path's, per {@link BackendKind}
     *                  (e.g. an emulated provider with the topology the caller configured)
     * @throws BackendUnavailableException when {@code selection} names a backend that is missing or has no driver
     */
    public static Choice open(BackendSelection selection, List<? extends BackendProvider> given) {
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(given, "given");
        switch (selection) {
            case EMULATED:
                return new Choice(emulated(given).open(), selection, "the emulated backend was chosen",
                        "the emulated backend was chosen", null);
            case CUDA: {
                BackendProvider provider = provider(BackendKind.CUDA, given);
                if (provider == null) {
                    throw new BackendUnavailableException("the CUDA backend was chosen (seqlink.backend=cuda), but it is not on the classpath: "
                            + "add org.jcuda:jcuda and org.jcuda:jcuda-natives (the seqlink starter brings both)", OTHER_SELECTION, null);
                }
                DriverDetection d = provider.detect();
                if (!d.usable()) {
                    throw new BackendUnavailableException("the CUDA backend was chosen (seqlink.backend=cuda), but there is no usable CUDA driver: "
                            + d.summary() + ". Install the NVIDIA driver (libcuda.so.1) and check that a GPU is visible (nvidia-smi)",
                            OTHER_SELECTION, d.cause());
                }
                return new Choice(provider.open(), selection, d.summary(), d.summary(), null);
            }
            case AUTO:
            default:
                return auto(given);
        }
    }

    private static Choice auto(List<? extends BackendProvider> given) {
        BackendProvider cuda = provider(BackendKind.CUDA, given);
        DriverDetection d = cuda == null
                ? DriverDetection.unusable("the CUDA backend is not on the classpath (org.jcuda:jcuda)", null)
                : cuda.detect();
        if (cuda != null && d.usable()) {
            try {
                return new Choice(cuda.open(), BackendSelection.AUTO, d.summary(), d.summary(), null);
            } catch (RuntimeException ex) {
                // a driver that answers but a backend that does not open is a fault worth a warning, not a quiet fallback
                log.warn("seqlink: a CUDA driver answered ({}) but the cuda backend did not open ({}); using the emulated "
                        + "backend", d.summary(), ex.getMessage());
                log.debug("seqlink: the cuda backend's failure to open", ex);
                return new Choice(emulated(given).open(), BackendSelection.AUTO, "the cuda backend failed to open: "
                        + ex.getMessage(), d.summary(), ex);
            }
        }
        // No GPU here is the documented default path: the runtime logs the calm reason once; the whole cause only at DEBUG.
        log.debug("seqlink: no usable CUDA driver ({}); the emulated backend is used", d.summary(), d.cause());
        return new Choice(emulated(given).open(), BackendSelection.AUTO, calmReason(d), d.summary(), d.cause());
    }

    /** Why there is no CUDA backend, without the loader's error text (that stays in {@link Choice#detail()}). */
    static String calmReason(DriverDetection d) {
        if (d.cause() instanceof LinkageError) {
            return "no usable CUDA driver on this host (libcuda.so.1 or JCuda's natives could not be loaded)";
        }
        return "no usable CUDA driver (" + d.summary() + ")";
    }

    private static BackendProvider emulated(List<? extends BackendProvider> given) {
        BackendProvider provider = provider(BackendKind.EMULATED, given);
        if (provider == null) {
            throw new BackendUnavailableException("no emulated backend provider: seqlink-kernels' "
                    + "META-INF/services/io.seqlink.backend.BackendProvider is missing from the class path (a shaded jar "
                    + "that drops service files?); merge service files when repackaging", null);
        }
        return provider;
    }

    /** The CUDA backend's provider on the class path, or {@code null} when it cannot load here. */
    public static @Nullable BackendProvider cudaProvider() {
        return provider(BackendKind.CUDA, List.of());
    }

    /** The first provider of {@code kind}: among {@code given}, else on the class path; {@code null} when none. */
    public static @Nullable BackendProvider provider(BackendKind kind, List<? extends BackendProvider> given) {
        for (BackendProvider p : given) {
            if (p.kind() == kind) {
                return p;
            }
        }
        for (BackendProvider p : discovered()) {
            if (p.kind() == kind) {
                return p;
            }
        }
        return null;
    }

    /**
     * The providers on the class path, in service-file order. One that cannot load (JCuda missing) is
     * left out, logged at DEBUG.
     */
    public static List<BackendProvider> discovered() {
        List<BackendProvider> found = new ArrayList<>();
        Iterator<BackendProvider> it = ServiceLoader.load(BackendProvider.class, Backends.class.getClassLoader()).iterator();
        // bounded: after a failure the iterator moves on to the next provider, but never trust that with a hang
        for (int attempt = 0; attempt < MAX_PROVIDER_ENTRIES; attempt++) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError | LinkageError ex) {
                log.debug("seqlink: a backend provider could not be loaded; left out", ex);
            }
        }
        return found;
    }
}
