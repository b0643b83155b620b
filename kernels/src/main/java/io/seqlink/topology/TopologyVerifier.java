package io.seqlink.topology;

import io.seqlink.backend.Backend;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.LinkAttributes;
import io.seqlink.backend.ProbeMeasurement;
import io.seqlink.backend.ProbeMeasurement.ScalingPoint;
import io.seqlink.backend.ProbePlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proves the hardware path of each link before a channel uses it: driver attributes (peer access,
 * native atomics, both directions: the pull direction for {@code PEER_ATOMIC}, the push direction for
 * what a {@code PEER_COPY} verdict rests on), then—for links that claim native atomics—the probe: a functional
 * check and the latency and scaling of remote atomics against thresholds. Peer access can be enabled
 * without error and still route atomics through the host; only measurement tells.
 *
 * <p>The same code judges the emulated backend's simulated links.
 */
public final class TopologyVerifier {

    private static final Logger log = LoggerFactory.getLogger(TopologyVerifier.class);

    private final Backend backend;
    private final VerifierSettings settings;

    public TopologyVerifier(Backend backend, VerifierSettings settings) {
        this.backend = backend;
        this.settings = settings;
    }

    /**
     * Verifies every ordered pair of distinct devices in {@code devices}; pairs in {@code probePairs}
     * (as {@code producer * 1000 + consumer}, or all when {@code null}) are probed, the rest are judged
     * on driver attributes alone.
     */
    public TopologyReport verify(List<Integer> devices, @Nullable Set<Integer> probePairs) {
        long start = System.nanoTime();
        List<TopologyReport.DeviceSummary> summaries = new ArrayList<>();
        for (int d : devices) {
            Device device = backend.device(d);
            summaries.add(new TopologyReport.DeviceSummary(d, device.name(), device.memoryInfo().totalBytes()));
        }
        List<LinkVerdict> links = new ArrayList<>();
        for (int p : devices) {
            for (int c : devices) {
                if (p != c) {
                    boolean probe = probePairs == null || probePairs.contains(pairKey(p, c));
                    links.add(verifyLink(p, c, probe));
                }
            }
        }
        TopologyReport report = new TopologyReport(backend.description(), summaries, links, Instant.now(),
                (System.nanoTime() - start) / 1_000_000);
        for (LinkVerdict v : links) {
            log.info("seqlink link {} -> {}: {} ({})", v.producer(), v.consumer(), v.verdict(), v.reason());
        }
        return report;
    }

    /** The key of an ordered pair in {@code probePairs}. */
    public static int pairKey(int producer, int consumer) {
        return producer * 1000 + consumer;
    }

    /** Judges one link: the consumer reads producer memory (pull) or the producer writes consumer memory (push). */
    public LinkVerdict verifyLink(int producer, int consumer, boolean probe) {
        LinkAttributes pull = backend.linkAttributes(consumer, producer);
        LinkAttributes push = backend.linkAttributes(producer, consumer);
        if (!pull.accessSupported() && !push.accessSupported()) {
            return new LinkVerdict(producer, consumer, LinkClass.HOST_STAGED,
                    "no peer access between device " + producer + " and device " + consumer + " in either direction",
                    pull, push, null);
        }
        LinkClass withoutAtomics = push.accessSupported() ? LinkClass.PEER_COPY : LinkClass.HOST_STAGED;
        String fallbackHow = withoutAtomics == LinkClass.PEER_COPY ? peerCopyStanding(producer, consumer, push) : "; device "
                + producer + " cannot write device " + consumer + "'s memory either, so frames go through host memory";
        if (!pull.accessSupported() || !pull.nativeAtomics()) {
            String why = !pull.accessSupported()
                    ? "device " + consumer + " cannot address device " + producer + "'s memory"
                    : "peer access without native atomics (driver: NATIVE_ATOMIC_SUPPORTED=0 for " + consumer + " -> " + producer + ")";
            return new LinkVerdict(producer, consumer, withoutAtomics, why + fallbackHow, pull, push, null);
        }
        if (!probe || !settings.enabled()) {
            return new LinkVerdict(producer, consumer, LinkClass.PEER_ATOMIC,
                    "driver reports peer access and native atomics (not probed"
                            + (settings.enabled() ? ": no channel uses this link)" : ": verification is off)"),
                    pull, push, null);
        }
        ProbeMeasurement m;
        try {
            backend.enablePeerAccess(consumer, producer);
            if (push.accessSupported()) {
                backend.enablePeerAccess(producer, consumer);
            }
            m = backend.probe(producer, consumer, ProbePlan.defaults(settings.timeout()));
        } catch (DeviceException ex) {
            return new LinkVerdict(producer, consumer, withoutAtomics,
                    "the probe failed (" + ex.getMessage() + ")" + fallbackHow, pull, push, null);
        }
        String failure = judge(m);
        if (failure != null) {
            return new LinkVerdict(producer, consumer, withoutAtomics, failure + fallbackHow, pull, push, m);
        }
        return new LinkVerdict(producer, consumer, LinkClass.PEER_ATOMIC, String.format(Locale.ROOT,
                "native peer atomics measured: add %.0f ns, acquire load %.0f ns, scaling x%.1f", m.atomicAddLatencyNs(),
                m.acquireLoadLatencyNs(), scalingRatio(m)), pull, push, m);
    }

    /**
     * How a {@code PEER_COPY} verdict's reason tells a Java user to keep the memory model's guarantee: pin the
     * channel's transport. A layer with its own configuration (the Spring starter) replaces this phrase with
     * its own setting when it shows the reason.
     */
    public static final String FORCE_HOST_STAGED = "ChannelSpec.Builder.transport(Transport.HOST_STAGED)";

    /**
     * What a {@code PEER_COPY} verdict rests on, checked in the push direction (the producer writes the
     * replica in the consumer's memory, the consumer reads it). With native atomics there the CUDA memory
     * model makes the replica's 8-byte words atomic between the two devices; without them it promises that
     * only for words one device touches, so the replica's single-writer stores rest on practice (aligned
     * peer writes land whole and in order) backed by the consumer's stamp check. {@code host-staged} keeps
     * the model's guarantee (8-byte loads and stores of mapped memory are atomic) at the cost of a host hop.
     */
    static String peerCopyStanding(int producer, int consumer, LinkAttributes push) {
        if (push.nativeAtomics()) {
            return "; the push direction " + producer + " -> " + consumer + " has native atomics, so the replica's words "
                    + "are atomic between the two devices";
        }
        return "; the push direction " + producer + " -> " + consumer + " has no native atomics either: the replica's "
                + "single-writer stores are outside the CUDA memory model's atomicity guarantee and rest on practice and the "
                + "stamp check (for the guarantee, set the channel's transport: " + FORCE_HOST_STAGED + ")";
    }

    /** Why a measurement fails the thresholds, or {@code null} when it passes. */
    @Nullable String judge(ProbeMeasurement m) {
        if (!m.functionalOk()) {
            return "functional check failed: " + m.functionalDetail();
        }
        if (m.atomicAddLatencyNs() > settings.maxAtomicLatencyNs()) {
            return String.format(Locale.ROOT, "remote atomic add takes %.0f ns, above the %.0f ns threshold "
                    + "(seqlink.verify.max-atomic-latency): atomics are likely proxied, not native",
                    m.atomicAddLatencyNs(), settings.maxAtomicLatencyNs());
        }
        double ratio = scalingRatio(m);
        if (ratio < settings.minScalingRatio()) {
            return String.format(Locale.ROOT, "remote atomic throughput scales x%.2f from 1 to the most threads, "
                    + "below x%.2f (seqlink.verify.min-scaling-ratio): the atomic path collapses under concurrency",
                    ratio, settings.minScalingRatio());
        }
        return null;
    }

    /** Throughput at the most threads over throughput at the fewest. */
    public static double scalingRatio(ProbeMeasurement m) {
        List<ScalingPoint> points = m.scaling();
        if (points.size() < 2) {
            return Double.POSITIVE_INFINITY;
        }
        ScalingPoint first = points.get(0);
        ScalingPoint last = points.get(0);
        for (ScalingPoint p : points) {
            if (p.threads() * p.blocks() < first.threads() * first.blocks()) {
                first = p;
            }
            if (p.threads() * p.blocks() > last.threads() * last.blocks()) {
                last = p;
            }
        }
        return first.opsPerSecond() <= 0 ? 0 : last.opsPerSecond() / first.opsPerSecond();
    }
}
