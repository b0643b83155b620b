package io.seqlink.ucx.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.ucx.BridgeSnapshot;
import io.seqlink.ucx.LinkState;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class UcxBridgeHealthIndicatorTests {

    @Test
    void aConnectedBridgeIsUpWithItsLagAndNoProblem() {
        Health h = health(snapshot(LinkState.CONNECTED, null));
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails()).containsEntry("state", "CONNECTED").containsEntry("lag", 30L).containsEntry("inFlight", 10L)
                .containsEntry("role", "send").doesNotContainKey("problem");
    }

    @ParameterizedTest
    @EnumSource(value = LinkState.class, names = "CONNECTED", mode = EnumSource.Mode.EXCLUDE)
    void everyOtherStateIsDownWithTheStateAndWhatIsWrong(LinkState state) {
        String problem = "the receiver at /10.0.0.2:13337 sent no heartbeat for PT3S (link stalled, or the receiver hangs)";
        Health h = health(snapshot(state, problem));
        assertThat(h.getStatus()).isEqualTo(Status.DOWN);
        assertThat(h.getDetails()).containsEntry("state", state.name()).containsEntry("problem", problem)
                .containsEntry("peer", "/10.0.0.2:13337").containsEntry("waitingForCredit", true);
    }

    @Test
    void aRefusedBridgeSaysWhatToFix() {
        String problem = "the receiver refused the link: the sender's frames are up to 1024 B, channel 'frames' here has slots "
                + "of 256 B: raise slot-size of the receiving channel to at least 1024 B";
        Health h = health(snapshot(LinkState.REFUSED, problem));
        assertThat(h.getStatus()).isEqualTo(Status.DOWN);
        assertThat(h.getDetails()).containsEntry("state", "REFUSED").containsEntry("problem", problem);
    }

    @Test
    void aBridgeNotOpenYetIsUnknown() {
        Health h = new UcxBridgeHealthIndicator(() -> null).health(true);
        assertThat(h.getStatus()).isEqualTo(Status.UNKNOWN);
        assertThat(h.getDetails()).containsEntry("state", "not open yet");
    }

    @Test
    void recentRefusalsShowAsADetailWithTheirCountsAndTheLatestPeer() {
        BridgeSnapshot.Refusals r = new BridgeSnapshot.Refusals(0, 0, 0, 1, "a second sender of channel 'frames' (from /10.0.0.9:4000)",
                1_500);
        BridgeSnapshot s = snapshot(LinkState.CONNECTED, null);
        Health h = health(new BridgeSnapshot(s.channel(), s.role(), s.state(), s.peer(), s.problem(), s.epoch(), s.staged(), s.sent(),
                s.received(), s.consumed(), s.bytes(), s.reconnects(), s.resent(), s.waitingForCredit(), s.peerSilentMillis(), r));
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails()).containsKey("refusals");
        assertThat(h.getDetails().get("refusals").toString()).contains("senders=1", "/10.0.0.9:4000", "lastSecondsAgo=1");
        assertThat(health(snapshot(LinkState.CONNECTED, null)).getDetails()).doesNotContainKey("refusals");
    }

    private static Health health(BridgeSnapshot s) {
        return new UcxBridgeHealthIndicator(() -> s).health(true);
    }

    private static BridgeSnapshot snapshot(LinkState state, @Nullable String problem) {
        return new BridgeSnapshot("frames", BridgeSnapshot.Role.SEND, state, "/10.0.0.2:13337", problem, 7, 130, 110, 100, 100,
                4096, 2, 64, true, 3100, BridgeSnapshot.Refusals.NONE);
    }
}
