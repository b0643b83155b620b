package io.seqlink.backend;

/**
 * Opens a hardware backend found on the classpath by name, so that the classes of an optional
 * library (JCuda) load only when that backend is asked for.
 */
public interface BackendProvider {

    /** Looks for a usable driver; made once and cached, never throws. */
    DriverDetection detect();

    /** Opens the backend; throws {@link BackendUnavailableException} or {@link KernelsMissingException}. */
    Backend open();
}
