package io.seqlink.spring.health;

import org.springframework.boot.health.contributor.Status;

/**
 * The health statuses seqlink reports besides Boot's own.
 *
 * <table>
 * <caption>What each status of the {@code seqlink} contributor means</caption>
 * <tr><th>status</th><th>when</th></tr>
 * <tr><td>{@code UP}</td><td>every link is at least the required class (or fell back under policy
 * {@code fallback}); every consumer is active, keeps up and is not stalled</td></tr>
 * <tr><td>{@code DEGRADED}</td><td>a link worse than required is used under policy {@code warn}; or a
 * consumer lags (lag at least {@code seqlink.health.lag-threshold} of the ring), is stalled (frames wait
 * and no acknowledgement came within the channel's stall timeout), or is dead and dropped
 * ({@code drop-consumer}). Frames still flow. HTTP 200.</td></tr>
 * <tr><td>{@code DOWN}</td><td>a channel failed (a device error closed it), or a dead consumer holds the
 * producer ({@code keep-waiting}); also instead of {@code DEGRADED} when
 * {@code seqlink.health.fail-on-degraded=true}. HTTP 503.</td></tr>
 * <tr><td>{@code OUT_OF_SERVICE}</td><td>a channel is draining or closed (the application is stopping).</td></tr>
 * </table>
 *
 * <p>Boot aggregates only statuses listed in {@code management.endpoint.health.status.order}; unless
 * that is set, seqlink sets it to {@code down, out-of-service, degraded, up, unknown} so that a
 * degraded channel shows in the aggregate. If you set the order yourself, include {@code degraded}.
 */
public final class SeqlinkHealthStatus {

    /** seqlink works, but not as well as configured. */
    public static final Status DEGRADED = new Status("DEGRADED",
            "seqlink works, but a link is worse than required or a consumer lags, stalls or was dropped");

    /** The status order seqlink sets when the application does not set one. */
    public static final String DEFAULT_STATUS_ORDER = "down,out-of-service,degraded,up,unknown";

    private SeqlinkHealthStatus() {
    }
}
