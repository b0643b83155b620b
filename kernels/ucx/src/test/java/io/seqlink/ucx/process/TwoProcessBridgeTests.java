package io.seqlink.ucx.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.testing.ChildJvm;
import io.seqlink.ucx.UcxEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two JVM processes on loopback over UCX tcp, each with its own emulated seqlink runtime: the sender's
 * local channel, the bridge, the receiver's local channel and its checksumming listener. The faults are
 * real: a process killed with SIGKILL, a process frozen with SIGSTOP past the link timeout.
 */
class TwoProcessBridgeTests {

    private static final Duration START = Duration.ofSeconds(30);

    @BeforeAll
    static void ucx() {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX process tests skipped: " + UcxEnvironment.probe().problem());
    }

    @Test
    void carriesAMillionChecksummedFramesBetweenTwoProcessesWithNoneLostDuplicatedOrCorrupt() throws Exception {
        long frames = 1_000_000;
        try (ChildJvm receiver = PeerProcess.start("million-receiver", "receive", "0", "128")) {
            int port = port(receiver);
            try (ChildJvm sender = PeerProcess.start("million-sender", "send", "127.0.0.1:" + port, "128", "" + frames, "1")) {
                sender.awaitLine("READY", START);
                receiver.awaitStatus(s -> number(s, "count") >= frames, Duration.ofMinutes(3), frames + " frames received");
                sender.awaitStatus(s -> number(s, "consumed") == frames, Duration.ofSeconds(10), "every frame confirmed");
                assertThat(sender.linesContaining("UCX  WARN")).isEmpty();
                assertThat(sender.linesContaining("UCX  ERROR")).isEmpty();
                Map<String, String> sent = sender.stop(Duration.ofSeconds(10));
                assertThat(number(sent, "unconfirmed")).isZero();
                assertThat(number(sent, "localBacklog")).isZero();
            }
            // the sender said goodbye: an orderly close reads as one on the receiver, not as a lost link
            assertThat(receiver.awaitLineContaining("the sender closed the link; waiting for it", Duration.ofSeconds(10)))
                    .contains(" INFO ");
            assertThat(receiver.linesContaining("lost")).isEmpty();
            // nothing from UCX itself on the steady path: no warning or error per frame, batch or credit
            assertThat(receiver.linesContaining("UCX  WARN")).isEmpty();
            assertThat(receiver.linesContaining("UCX  ERROR")).isEmpty();
            Map<String, String> got = receiver.stop(Duration.ofSeconds(10));
            assertThat(number(got, "count")).isEqualTo(frames);
            assertThat(number(got, "corrupt")).isZero();
            assertThat(number(got, "duplicates")).isZero();
            assertThat(number(got, "gaps")).isZero();
            assertThat(number(got, "firstId")).isEqualTo(1);
            assertThat(number(got, "lastId")).isEqualTo(frames);
        }
    }

    @Test
    void receiverKilledMidStreamThenRestartedGetsEveryFrameAtLeastOnceAndNoneTwiceWithinAProcess() throws Exception {
        long frames = 60_000;
        try (ChildJvm first = PeerProcess.start("restart-receiver-1", "receive", "0", "512", "20000")) {
            int port = port(first);
            try (ChildJvm sender = PeerProcess.start("restart-sender", "send", "127.0.0.1:" + port, "512", "" + frames, "1")) {
                first.awaitStatus(s -> number(s, "count") >= 10_000, START, "10,000 frames at the first receiver");
                first.kill();
                Map<String, String> before = first.status(); // its last report: it delivered at least this much
                Map<String, String> lost = sender.awaitStatus(s -> "RECONNECTING".equals(s.get("state")), Duration.ofSeconds(10),
                        "the sender seeing the loss");
                long confirmed = number(lost, "consumed"); // the first receiver's consumers acknowledged 1..confirmed
                try (ChildJvm second = PeerProcess.start("restart-receiver-2", "receive", "" + port, "512")) {
                    second.awaitStatus(s -> number(s, "lastId") == frames, Duration.ofMinutes(1), "the rest at the second receiver");
                    sender.awaitStatus(s -> number(s, "consumed") == frames && "CONNECTED".equals(s.get("state")),
                            Duration.ofSeconds(10), "every frame confirmed by the second receiver");
                    assertThat(number(sender.status(), "reconnects")).isGreaterThanOrEqualTo(1);
                    Map<String, String> after = second.stop(Duration.ofSeconds(10));
                    // nothing lost: the second receiver starts right after the last confirmed frame, and goes to the end
                    assertThat(number(after, "firstId")).isEqualTo(confirmed + 1);
                    assertThat(number(after, "lastId")).isEqualTo(frames);
                    assertThat(number(after, "count")).isEqualTo(frames - confirmed);
                    assertThat(number(before, "firstId")).isEqualTo(1);
                    for (Map<String, String> s : List.of(before, after)) {
                        assertThat(number(s, "corrupt")).isZero();
                        assertThat(number(s, "duplicates")).isZero();
                        assertThat(number(s, "gaps")).isZero();
                    }
                    // at-least-once: what the first receiver delivered past "confirmed" (at most its window and ring)
                    // arrives again; the sender says how much it put again
                    assertThat(number(sender.status(), "resent")).isBetween(0L, 128L);
                }
                sender.stop(Duration.ofSeconds(10));
            }
        }
    }

    @Test
    void senderKilledMidStreamThenRestartedStartsANewEpochDeliveredExactlyOnce() throws Exception {
        try (ChildJvm receiver = PeerProcess.start("sender-restart-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm first = PeerProcess.start("sender-restart-1", "send", "127.0.0.1:" + port, "512", "1000000", "1")) {
                receiver.awaitStatus(s -> number(s, "count") >= 10_000, START, "10,000 frames from the first sender");
                first.kill();
            }
            receiver.awaitStatus(s -> "RECONNECTING".equals(s.get("state")), Duration.ofSeconds(10), "the receiver seeing the loss");
            Map<String, String> before = receiver.status();
            long base = 1_000_000_000L;
            try (ChildJvm second = PeerProcess.start("sender-restart-2", "send", "127.0.0.1:" + port, "512", "20000", "" + base)) {
                receiver.awaitStatus(s -> number(s, "lastId") == base + 19_999, Duration.ofMinutes(1), "the second sender's frames");
                second.awaitStatus(s -> number(s, "consumed") == 20_000, Duration.ofSeconds(10), "every frame confirmed");
                second.stop(Duration.ofSeconds(10));
            }
            Map<String, String> got = receiver.stop(Duration.ofSeconds(10));
            assertThat(number(got, "epochs")).isEqualTo(2);
            assertThat(number(got, "epochFirstId")).isEqualTo(base);
            assertThat(number(got, "count")).isEqualTo(number(before, "count") + 20_000);
            assertThat(number(got, "corrupt")).isZero();
            assertThat(number(got, "duplicates")).isZero();
            assertThat(number(got, "gaps")).isZero();
        }
    }

    @Test
    void linkResetWithBothProcessesAliveResumesWithEveryFrameExactlyOnce() throws Exception {
        long frames = 40_000;
        try (ChildJvm receiver = PeerProcess.start("reset-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm sender = PeerProcess.start("reset-sender", "send", "127.0.0.1:" + port, "512", "" + frames, "1")) {
                for (int reset = 1; reset <= 3; reset++) {
                    long at = reset * 8_000L;
                    receiver.awaitStatus(s -> number(s, "count") >= at, START, at + " frames before reset");
                    sender.command("reconnect");
                    int expected = reset;
                    sender.awaitStatus(s -> number(s, "reconnects") >= expected && "CONNECTED".equals(s.get("state")),
                            Duration.ofSeconds(20), "reconnect " + reset);
                }
                receiver.awaitStatus(s -> number(s, "lastId") == frames, Duration.ofMinutes(1), "every frame after the resets");
                sender.awaitStatus(s -> number(s, "consumed") == frames, Duration.ofSeconds(10), "every frame confirmed");
                sender.stop(Duration.ofSeconds(10));
            }
            // each reset was orderly (a goodbye, then a flushing close): none reads as a lost link
            assertThat(receiver.linesContaining("the sender closed the link to reconnect")).hasSize(3);
            assertThat(receiver.linesContaining("lost")).isEmpty();
            assertExactlyOnce(receiver.stop(Duration.ofSeconds(10)), frames);
        }
    }

    @Test
    void receiverFrozenPastTheLinkTimeoutIsReportedStalledWhileTheProducerIsBackPressuredThenGoesOnExactlyOnce() throws Exception {
        long frames = 40_000;
        try (ChildJvm receiver = PeerProcess.start("stall-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm sender = PeerProcess.start("stall-sender", "send", "127.0.0.1:" + port, "512", "" + frames, "1")) {
                receiver.awaitStatus(s -> number(s, "count") >= 5_000, START, "5,000 frames before the stall");
                receiver.signal("STOP");
                Map<String, String> stalled = sender.awaitStatus(s -> "STALLED".equals(s.get("state")), Duration.ofSeconds(10),
                        "the sender reporting the stall");
                assertThat(stalled.get("problem")).contains("no_heartbeat");
                long pressured = number(stalled, "backpressured");
                // the producer is not blocked: its offers keep returning BACK_PRESSURED while the link stalls
                sender.awaitStatus(s -> number(s, "backpressured") > pressured + 100, Duration.ofSeconds(10),
                        "the producer still running, back-pressured");
                receiver.signal("CONT");
                receiver.awaitStatus(s -> number(s, "lastId") == frames, Duration.ofMinutes(1), "every frame after the stall");
                sender.awaitStatus(s -> number(s, "consumed") == frames && "CONNECTED".equals(s.get("state")),
                        Duration.ofSeconds(10), "every frame confirmed, the link well again");
                sender.stop(Duration.ofSeconds(10));
            }
            assertExactlyOnce(receiver.stop(Duration.ofSeconds(10)), frames);
        }
    }

    @Test
    void senderFrozenPastTheLinkTimeoutIsReportedStalledByTheReceiverThenGoesOnExactlyOnce() throws Exception {
        long frames = 40_000;
        try (ChildJvm receiver = PeerProcess.start("frozen-sender-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm sender = PeerProcess.start("frozen-sender", "send", "127.0.0.1:" + port, "512", "" + frames, "1")) {
                receiver.awaitStatus(s -> number(s, "count") >= 5_000, START, "5,000 frames before the stall");
                sender.signal("STOP");
                Map<String, String> stalled = receiver.awaitStatus(s -> "STALLED".equals(s.get("state")),
                        Duration.ofSeconds(10), "the receiver reporting the stall");
                assertThat(stalled.get("problem")).contains("no_heartbeat");
                sender.signal("CONT");
                receiver.awaitStatus(s -> number(s, "lastId") == frames, Duration.ofMinutes(1), "every frame after the stall");
                sender.awaitStatus(s -> number(s, "consumed") == frames, Duration.ofSeconds(10), "every frame confirmed");
                sender.stop(Duration.ofSeconds(10));
            }
            assertExactlyOnce(receiver.stop(Duration.ofSeconds(10)), frames);
        }
    }

    private static void assertExactlyOnce(Map<String, String> got, long frames) {
        assertThat(number(got, "count")).isEqualTo(frames);
        assertThat(number(got, "epochs")).isEqualTo(1);
        assertThat(number(got, "duplicates")).isZero();
        assertThat(number(got, "gaps")).isZero();
        assertThat(number(got, "corrupt")).isZero();
    }

    private static int port(ChildJvm receiver) {
        String ready = receiver.awaitLine("READY", START);
        return Integer.parseInt(ready.substring(ready.indexOf('=') + 1).trim());
    }

    private static long number(Map<String, String> status, String key) {
        return Long.parseLong(status.getOrDefault(key, "-1"));
    }
}
