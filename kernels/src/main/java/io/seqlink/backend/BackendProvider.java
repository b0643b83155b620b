package io.seqlink.backend;

/**
 * Opens one implementation of the backend seam. {@link Backends} finds providers with
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.seqlink.backend.BackendProvider}) or is
 * given them by the caller (the runtime's builder), so this package never names an implementation and
 * the classes of an optional library (JCuda) load only when their backend is probed.
 *
 * <p>Implementations are safe to call from any thread and keep a public no-argument constructor for
 * the service loader.
 */
public interface BackendProvider {

    /** The implementation this provider opens. */
    BackendKind kind();

    /** Looks for what the backend needs (a driver and devices); made once and cached, never throws. */
    DriverDetection detect();

    /** Opens the backend; throws {@link BackendUnavailableException} or {@link KernelsMissingException}. */
    Backend open();
}
