package io.seqlink.autoconfigure;

import io.seqlink.MissingDevicesException;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendKind;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * Devices a configuration names that the runtime does not use, each reported under its property with
 * the fix that works on the backend in use: on the emulated backend a device beyond the simulated
 * machine needs {@code seqlink.emulated.device-count}; on CUDA it needs another device; a device the
 * backend has but {@code seqlink.topology.devices} leaves out needs adding there. Stateless.
 */
final class DeviceViolations {

    /** The most devices the emulated backend simulates. */
    private static final int MAX_EMULATED_DEVICES = 64;

    private DeviceViolations() {
    }

    /** The producer and consumer devices of {@code spec} that {@code runtime} does not use, under {@code prefix}. */
    static List<Violation> ofChannel(ChannelSpec spec, String prefix, SeqlinkRuntime runtime, SeqlinkProperties properties) {
        List<Violation> v = new ArrayList<>();
        List<Integer> inUse = runtime.devices();
        String where = " is not among the devices in use " + inUse + " (" + runtime.backend().description() + ")";
        if (spec.producer() >= 0 && !inUse.contains(spec.producer())) {
            v.add(new Violation(prefix + "producer", "producer device " + spec.producer() + where,
                    "pick one of " + inUse + fix(spec.producer(), runtime.backendKind(), runtime.backend().deviceCount(), properties)));
        }
        if (spec.consumers() != null) {
            for (Integer c : spec.consumers()) {
                if (c != null && c >= 0 && !inUse.contains(c)) {
                    v.add(new Violation(prefix + "consumers", "consumer device " + c + where,
                            "pick devices from " + inUse + fix(c, runtime.backendKind(), runtime.backend().deviceCount(), properties)));
                }
            }
        }
        return v;
    }

    /** {@code seqlink.topology.devices} naming devices the backend does not have. */
    static List<Violation> ofTopology(MissingDevicesException ex, SeqlinkProperties properties) {
        List<Violation> v = new ArrayList<>();
        for (int i = 0; i < ex.missing().size(); i++) {
            int d = ex.missing().get(i);
            v.add(new Violation("seqlink.topology.devices", ex.violations().get(i).problem(),
                    "list devices between 0 and " + (ex.deviceCount() - 1) + fix(d, ex.backend(), ex.deviceCount(), properties)));
        }
        return v;
    }

    /** What else makes device {@code d} usable, starting with ", " (or ": " for a reason); empty when nothing does. */
    private static String fix(int d, BackendKind backend, int deviceCount, SeqlinkProperties properties) {
        boolean listed = !properties.topology().devices().isEmpty();
        if (d < deviceCount) {
            return listed ? ", or add " + d + " to seqlink.topology.devices" : "";
        }
        if (backend == BackendKind.EMULATED) {
            return d < MAX_EMULATED_DEVICES ? ", or raise seqlink.emulated.device-count to " + (d + 1)
                    + (listed && !properties.topology().devices().contains(d) ? " and add " + d + " to seqlink.topology.devices" : "")
                    : "";
        }
        return ": this machine has " + deviceCount + " GPU(s) (nvidia-smi -L lists them)";
    }
}
