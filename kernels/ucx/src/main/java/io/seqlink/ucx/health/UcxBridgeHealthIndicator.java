package io.seqlink.ucx.health;

import io.seqlink.ucx.BridgeSnapshot;
import io.seqlink.ucx.LinkState;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * One bridge's health from its snapshot (cached counters, never a UCX call): UP while connected,
 * DOWN with the problem when connecting, stalled, lost, refused or failed; the lag across the link and
 * the frames in flight as details; a {@code refusals} detail (counts and the latest, with its peer) while a
 * refusal is at most {@value #RECENT_MILLIS} ms old (a second sender, a failed authentication, a malformed
 * message: the link itself may be UP). UNKNOWN before the bridge opened (the context is still starting).
 */
public class UcxBridgeHealthIndicator extends AbstractHealthIndicator {

    /** Refusals at most this old show as the {@code refusals} detail. */
    public static final long RECENT_MILLIS = 60_000;

    private final Supplier<@Nullable BridgeSnapshot> snapshots;

    /** @param snapshots the bridge's snapshot, or {@code null} while it is not open */
    public UcxBridgeHealthIndicator(Supplier<@Nullable BridgeSnapshot> snapshots) {
        super("seqlink UCX bridge health check failed");
        this.snapshots = snapshots;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        BridgeSnapshot s = snapshots.get();
        if (s == null) {
            builder.unknown().withDetail("state", "not open yet");
            return;
        }
        if (s.state() == LinkState.CONNECTED) {
            builder.up();
        } else {
            builder.down();
        }
        builder.withDetail("role", s.role().name().toLowerCase(java.util.Locale.ROOT)).withDetail("state", s.state().name())
                .withDetail("peer", s.peer()).withDetail("lag", s.lag()).withDetail("inFlight", s.inFlight())
                .withDetail("consumed", s.consumed()).withDetail("reconnects", s.reconnects())
                .withDetail("peerSilentMillis", s.peerSilentMillis()).withDetail("waitingForCredit", s.waitingForCredit());
        if (s.problem() != null) {
            builder.withDetail("problem", s.problem());
        }
        BridgeSnapshot.Refusals r = s.refusals();
        if (r.recent(RECENT_MILLIS)) {
            builder.withDetail("refusals", java.util.Map.of("handshakes", r.handshakes(), "authFailures", r.authFailures(),
                    "protocolErrors", r.protocolErrors(), "senders", r.senders(), "last", String.valueOf(r.last()),
                    "lastSecondsAgo", r.lastMillisAgo() / 1000));
        }
    }
}
