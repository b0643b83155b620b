package io.seqlink;

import io.seqlink.backend.Backend;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.consumer.Transports;
import io.seqlink.topology.LinkClass;
import io.seqlink.topology.LinkVerdict;
import io.seqlink.topology.TopologyPolicy;
import io.seqlink.topology.TopologyReport;
import io.seqlink.topology.TopologyVerifier;
import io.seqlink.topology.Transport;
import io.seqlink.topology.UnsupportedLinkException;
import io.seqlink.topology.VerifierSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's view of the links: the verified topology report (replaced as a whole, read without
 * locks), and the transport each consumer of a channel gets from it under the topology policy.
 * Verification and the choice of a transport are serialized; reading the report is safe from any thread.
 */
final class LinkSelection {

    /** The runtime's logger: operators know these lines as the runtime's. */
    private static final Logger log = LoggerFactory.getLogger(SeqlinkRuntime.class);

    /** How advice names the channel when it is for whichever channel uses the link. */
    static final String ANY_CHANNEL = "<name>";

    private final Backend backend;
    private final VerifierSettings settings;
    private final TopologyPolicy policy;
    private final List<Integer> devices;
    private final SettingNames names;
    private final Set<String> degradedLinks = ConcurrentHashMap.newKeySet();
    private volatile @Nullable TopologyReport report;

    LinkSelection(Backend backend, VerifierSettings settings, TopologyPolicy policy, List<Integer> devices, SettingNames names) {
        this.backend = backend;
        this.settings = settings;
        this.policy = policy;
        this.devices = devices;
        this.names = names;
    }

    /** {@code v} with its advice in this runtime's setting names, for whichever channel uses the link. */
    private LinkVerdict named(LinkVerdict v) {
        String reason = v.reason().replace(TopologyVerifier.FORCE_HOST_STAGED, names.hostStagedTransport(ANY_CHANNEL));
        return reason.equals(v.reason()) ? v
                : new LinkVerdict(v.producer(), v.consumer(), v.verdict(), reason, v.pull(), v.push(), v.probe());
    }

    /** {@code v} (its advice already named for any channel) with the advice for channel {@code channel}. */
    private LinkVerdict forChannel(LinkVerdict v, String channel) {
        String reason = v.reason().replace(names.hostStagedTransport(ANY_CHANNEL), names.hostStagedTransport(channel));
        return reason.equals(v.reason()) ? v
                : new LinkVerdict(v.producer(), v.consumer(), v.verdict(), reason, v.pull(), v.push(), v.probe());
    }

    /** {@code r} with every verdict's advice in this runtime's setting names. */
    private TopologyReport named(TopologyReport r) {
        List<LinkVerdict> links = new ArrayList<>();
        for (LinkVerdict v : r.links()) {
            links.add(named(v));
        }
        return new TopologyReport(r.backend(), r.devices(), links, r.verifiedAt(), r.elapsedMillis());
    }

    TopologyReport report() {
        return Objects.requireNonNull(report, "verify() runs in SeqlinkRuntime.Builder.open() before the runtime is handed out");
    }

    Set<String> degradedLinks() {
        return Set.copyOf(degradedLinks);
    }

    /** Verifies every device's links, probing those {@code specs} use. */
    synchronized void verify(Collection<ChannelSpec> specs) {
        Set<Integer> pairs = new LinkedHashSet<>();
        for (ChannelSpec s : specs) {
            if (s.consumers() != null) {
                for (Integer c : s.consumers()) {
                    if (c != null) {
                        pairs.add(TopologyVerifier.pairKey(s.producer(), c));
                    }
                }
            }
        }
        report = named(new TopologyVerifier(backend, settings).verify(devices, pairs));
    }

    /** Verifies the links again, probing those {@code channels} use; the new report. */
    synchronized TopologyReport reverify(List<PublishChannel> channels) {
        Set<Integer> pairs = new LinkedHashSet<>();
        for (PublishChannel ch : channels) {
            for (int c : ch.consumerDevices()) {
                pairs.add(TopologyVerifier.pairKey(ch.spec().producer(), c));
            }
        }
        report = named(new TopologyVerifier(backend, settings).verify(devices, pairs));
        return report;
    }

    /** The verdict for a pair, probing it now if the report holds only driver attributes for it. */
    private synchronized LinkVerdict verdict(int producer, int consumer) {
        TopologyReport report = report();
        Optional<LinkVerdict> v = report.link(producer, consumer);
        boolean judgedOnAttributesOnly = v.isPresent() && settings.enabled() && !v.get().probed()
                && v.get().verdict() == LinkClass.PEER_ATOMIC;
        if (v.isPresent() && !judgedOnAttributesOnly) {
            return v.get();
        }
        LinkVerdict fresh = named(new TopologyVerifier(backend, settings).verifyLink(producer, consumer, true));
        List<LinkVerdict> links = new ArrayList<>();
        for (LinkVerdict old : report.links()) {
            links.add(old.producer() == producer && old.consumer() == consumer ? fresh : old);
        }
        this.report = new TopologyReport(report.backend(), report.devices(), links, report.verifiedAt(), report.elapsedMillis());
        return fresh;
    }

    /** Why the forced transport {@code t} cannot serve {@code producer -> consumer}, or {@code null}. */
    @Nullable String forcedTransportProblem(Transport t, int producer, int consumer) {
        return Transports.problem(t, backend, producer, consumer);
    }

    /** The transport for {@code consumer} of {@code spec}: forced, or from the verdict under the policy. */
    Transport transportFor(ChannelSpec spec, int consumer) {
        int producer = spec.producer();
        if (spec.transport() != Transport.AUTO) {
            return spec.transport();
        }
        if (producer == consumer) {
            return Transport.SAME_DEVICE;
        }
        LinkVerdict v = verdict(producer, consumer);
        v = forChannel(v, spec.name());
        if (v.verdict().satisfies(policy.required())) {
            return Transport.of(v.verdict());
        }
        switch (policy.onUnsupported()) {
            case FAIL:
                throw new UnsupportedLinkException(spec.name(), v, policy.required());
            case WARN:
                degradedLinks.add(producer + "->" + consumer);
                log.atWarn().addKeyValue(LogKeys.CHANNEL, spec.name()).addKeyValue(LogKeys.DEVICE, consumer)
                        .log("seqlink channel '{}': link {} -> {} is {} (required {}), using {}: {}", spec.name(), producer,
                                consumer, v.verdict(), policy.required(), Transport.of(v.verdict()), v.reason());
                return Transport.of(v.verdict());
            case FALLBACK:
            default:
                log.info("seqlink channel '{}': link {} -> {} is {} (required {}), falling back to {}", spec.name(), producer,
                        consumer, v.verdict(), policy.required(), Transport.of(v.verdict()));
                return Transport.of(v.verdict());
        }
    }
}
