package io.seqlink;

import io.seqlink.backend.Backend;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.Violation;
import io.seqlink.topology.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A channel spec against one runtime, before anything is reserved or allocated: the spec's own rules,
 * its devices among those in use, its name free, the backend's real limits, and a forced transport its
 * links support. Every problem at once, each naming its property. Safe from any thread.
 */
final class SpecValidation {

    private final Backend backend;
    private final List<Integer> devices;
    private final ChannelTable channels;
    private final LinkSelection links;

    SpecValidation(Backend backend, List<Integer> devices, ChannelTable channels, LinkSelection links) {
        this.backend = backend;
        this.devices = devices;
        this.channels = channels;
        this.links = links;
    }

    List<Violation> violations(ChannelSpec spec, String prefix) {
        List<Violation> v = new ArrayList<>(spec.validate(prefix));
        if (spec.producer() >= 0 && !devices.contains(spec.producer())) {
            v.add(notInUse(prefix + "producer", "producer device " + spec.producer(), "pick one of " + devices));
        }
        if (spec.consumers() != null) {
            for (Integer c : spec.consumers()) {
                if (c != null && c >= 0 && !devices.contains(c)) {
                    v.add(notInUse(prefix + "consumers", "consumer device " + c, "pick devices from " + devices));
                }
            }
        }
        if (channels.taken(spec.name())) {
            v.add(ChannelTable.nameTaken(spec, prefix));
        }
        if (v.isEmpty()) {
            v.addAll(ChannelLimits.check(spec, Map.of(), backend, prefix));
        }
        if (v.isEmpty() && spec.transport() != Transport.AUTO) {
            for (int c : spec.consumers()) {
                String why = links.forcedTransportProblem(spec.transport(), spec.producer(), c);
                if (why != null) {
                    v.add(new Violation(prefix + "transport", why, "use transport auto, or a transport this link supports"));
                }
            }
        }
        return v;
    }

    /**
     * Everything wrong with each of {@code specs} ({@link #violations(ChannelSpec, String)}, under its prefix in
     * {@code prefixes}), and, when each fits alone, what they break together: the memory they need summed.
     */
    List<Violation> violations(List<ChannelSpec> specs, List<String> prefixes) {
        List<Violation> v = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            v.addAll(violations(specs.get(i), prefixes.get(i)));
        }
        if (v.isEmpty()) {
            v.addAll(ChannelLimits.checkTogether(specs, prefixes, backend, HostMemory.availableBytes()));
        }
        return v;
    }

    private Violation notInUse(String property, String device, String pick) {
        return new Violation(property, device + " is not among the devices in use " + devices + " (" + backend.description() + ")",
                pick + ", or open the runtime with that device");
    }
}
