package io.seqlink.backend.cuda;

import java.util.Locale;

/**
 * Who writes a replica in host memory: the copy engine after the publish kernel (the default), or the publish
 * kernel's grid itself. The system property {@value #PROPERTY} ({@code copy-engine} or {@code kernel}) picks one for
 * the whole JVM, read once; it exists so the harness can run both paths A/B on the same build.
 */
enum HostPushMode {
    COPY_ENGINE,
    KERNEL;

    static final String PROPERTY = "seqlink.cuda.host-push";

    private static final HostPushMode CURRENT = parse(System.getProperty(PROPERTY, "copy-engine"));

    /** Whether this is the JVM's mode. */
    boolean selected() {
        return CURRENT == this;
    }

    static HostPushMode parse(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "copy-engine" -> COPY_ENGINE;
            case "kernel" -> KERNEL;
            default -> throw new IllegalArgumentException(PROPERTY + "=" + value + ": use copy-engine or kernel");
        };
    }
}
