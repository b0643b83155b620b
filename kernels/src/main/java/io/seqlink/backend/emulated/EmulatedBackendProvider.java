package io.seqlink.backend.emulated;

import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.DriverDetection;
import java.util.Objects;

/**
 * Opens an {@link EmulatedBackend} on a fixed {@link EmulatedTopology}. The service loader finds the
 * no-argument form (two NVLink-connected devices); the runtime's builder and the Spring
 * auto-configuration give one with the configured topology. Immutable: safe from any thread.
 */
public final class EmulatedBackendProvider implements BackendProvider {

    private final EmulatedTopology topology;

    /** Two devices joined by NVLink: the default when nothing else is configured. */
    public EmulatedBackendProvider() {
        this(EmulatedTopology.allNvlink(2));
    }

    public EmulatedBackendProvider(EmulatedTopology topology) {
        this.topology = Objects.requireNonNull(topology, "topology");
    }

    public EmulatedTopology topology() {
        return topology;
    }

    @Override
    public BackendKind kind() {
        return BackendKind.EMULATED;
    }

    @Override
    public DriverDetection detect() {
        return new DriverDetection(true, "emulated backend, " + topology.deviceCount() + " device(s)", topology.deviceCount(),
                null);
    }

    @Override
    public Backend open() {
        return new EmulatedBackend(topology);
    }
}
