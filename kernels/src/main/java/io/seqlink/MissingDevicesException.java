package io.seqlink;

import io.seqlink.backend.BackendKind;
import io.seqlink.channel.Violation;
import java.util.List;

/**
 * The runtime was asked to use devices the backend does not have. Carries what a caller needs to say
 * how to fix it on this backend: which backend, how many devices it has, which were asked for.
 * Immutable: safe from any thread.
 */
public class MissingDevicesException extends SeqlinkConfigurationException {

    private static final long serialVersionUID = 1L;

    private final BackendKind backend;
    private final int deviceCount;
    private final List<Integer> missing;

    /**
     * @param backend     the backend that opened
     * @param description the backend in words, e.g. "emulated backend, 2 device(s)"
     * @param deviceCount the devices it has
     * @param missing     the devices asked for that it does not have
     */
    public MissingDevicesException(BackendKind backend, String description, int deviceCount, List<Integer> missing) {
        super(missing.stream().map(d -> new Violation("devices", "device " + d + " does not exist: " + description,
                "list devices between 0 and " + (deviceCount - 1))).toList());
        this.backend = backend;
        this.deviceCount = deviceCount;
        this.missing = List.copyOf(missing);
    }

    public BackendKind backend() {
        return backend;
    }

    public int deviceCount() {
        return deviceCount;
    }

    public List<Integer> missing() {
        return missing;
    }
}
