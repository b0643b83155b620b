package io.seqlink.topology;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the verifier found: the backend, the devices in use, and a verdict per ordered device pair.
 * Immutable: health, the endpoint and metrics read it; only an explicit re-verification replaces it.
 *
 * @param backend      the backend's description
 * @param devices      the devices in use
 * @param links        a verdict per ordered pair of distinct devices in use
 * @param verifiedAt   when the verification finished
 * @param elapsedMillis how long it took
 */
public record TopologyReport(String backend, List<DeviceSummary> devices, List<LinkVerdict> links, Instant verifiedAt,
        long elapsedMillis) {

    public TopologyReport {
        devices = List.copyOf(devices);
        links = List.copyOf(links);
    }

    /** The verdict for producer → consumer, if the pair is in the report. */
    public Optional<LinkVerdict> link(int producer, int consumer) {
        for (LinkVerdict v : links) {
            if (v.producer() == producer && v.consumer() == consumer) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** The worst verdict over all links, or {@link LinkClass#PEER_ATOMIC} when there are none. */
    public LinkClass worst() {
        LinkClass worst = LinkClass.PEER_ATOMIC;
        for (LinkVerdict v : links) {
            if (v.verdict().ordinal() > worst.ordinal()) {
                worst = v.verdict();
            }
        }
        return worst;
    }

    /**
     * One device in use.
     *
     * @param ordinal          the device ordinal
     * @param name             its name
     * @param totalMemoryBytes its memory
     */
    public record DeviceSummary(int ordinal, String name, long totalMemoryBytes) {
    }
}
