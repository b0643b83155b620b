package io.seqlink.ucx.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.testing.ChildJvm;

import io.seqlink.ucx.UcxEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A receiving bridge against hostile and broken peers, every party in a process of its own (the receiver
 * and the senders are {@link BridgePeer}s, the attacker a plain JUCX client, {@link HostilePeer}): no
 * message may fail the bridge, nothing unauthenticated may reach the channel, a second sender may not
 * replace the first, and the legitimate stream arrives exactly once beside it all.
 */
class HostilePeerTests {

    private static final Duration START = Duration.ofSeconds(30);
    private static final Duration LONG = Duration.ofSeconds(60);

    @BeforeAll
    static void ucx() {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX process tests skipped: " + UcxEnvironment.probe().problem());
    }

    @Test
    void aPeerWithAnotherSecretIsRefusedAndNothingItSendsArrivesWhileTheRightSenderLinks() throws Exception {
        try (ChildJvm receiver = PeerProcess.start("wrong-secret-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm wrong = PeerProcess.start("wrong-secret-sender", List.of("-Dseqlink-test.secret=not-the-receivers-secret-42"),
                    BridgePeer.class, "send", "127.0.0.1:" + port, "512", "1000", "1000000000")) {
                // the sender checks the receiver's proof first: another secret fails it, and the sender stops there
                Map<String, String> refused = wrong.awaitStatus(s -> "REFUSED".equals(s.get("state")), START, "the wrong sender refused");
                assertThat(refused.get("problem")).contains("did_not_prove_the_shared_secret");
                assertThat(number(refused, "authFailures")).isPositive();
                wrong.kill(); // its close would wait for confirmations that never come
            }
            try (ChildJvm hostile = PeerProcess.start("wrong-secret-hostile", List.of(), HostilePeer.class, "overflow",
                    "127.0.0.1:" + port, "not-the-receivers-secret-42")) {
                // a client that answers the challenge anyway: its proof is refused by the receiver
                assertThat(hostile.awaitLine("RESULT linked=", START)).isEqualTo("RESULT linked=false");
                hostile.awaitLine("DONE", START);
            }
            receiver.awaitStatus(s -> number(s, "authFailures") >= 1, START, "the receiver counting the failed proof");
            streamExactlyOnce(receiver, port, 5_000, "wrong-secret-sender-2");
            assertThat(receiver.linesContaining("did not prove the shared secret")).isNotEmpty();
            assertThat(receiver.linesContaining("state=FAILED")).isEmpty();
        }
    }

    @Test
    void aReplayedHandshakeIsRefused() throws Exception {
        try (ChildJvm receiver = PeerProcess.start("replay-receiver", "receive", "0", "512");
                ChildJvm hostile = PeerProcess.start("replay-hostile", List.of(), HostilePeer.class, "replay",
                        "127.0.0.1:" + port(receiver), BridgePeer.SECRET)) {
            assertThat(hostile.awaitLine("RESULT recorded", START)).isEqualTo("RESULT recorded accepted=true");
            String replayed = hostile.awaitLine("RESULT replayed", START);
            assertThat(replayed).startsWith("RESULT replayed accepted=false").contains("did_not_prove_the_shared_secret");
            hostile.awaitLine("DONE", START);
            Map<String, String> s = receiver.awaitStatus(st -> number(st, "authFailures") >= 1, START, "the replay counted");
            assertThat(number(s, "count")).isZero();
            assertThat(receiver.linesContaining("state=FAILED")).isEmpty();
        }
    }

    @Test
    void garbageAndTruncatedMessagesOfEveryTypeBeforeAndAfterTheHandshakeDropOnlyTheirConnection() throws Exception {
        try (ChildJvm receiver = PeerProcess.start("garbage-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm hostile = PeerProcess.start("garbage-hostile", List.of(), HostilePeer.class, "garbage",
                    "127.0.0.1:" + port, BridgePeer.SECRET)) {
                hostile.awaitLine("DONE", Duration.ofMinutes(2));
                List<String> after = hostile.linesContaining("RESULT after");
                assertThat(after).hasSize(12).allSatisfy(line -> assertThat(line).endsWith("dropped=true"));
                assertThat(hostile.linesContaining("RESULT before")).hasSize(22);
            }
            // every malformed one counted (the ids the receiver has no handler for are UCX's to drop)
            receiver.awaitStatus(s -> number(s, "protocolErrors") >= 12 + 19, START, "the malformed messages counted");
            assertThat(receiver.linesContaining("state=FAILED")).isEmpty();
            assertThat(number(receiver.status(), "count")).isZero();
            streamExactlyOnce(receiver, port, 5_000, "garbage-sender");
        }
    }

    @Test
    void aSlotWhoseLengthFieldExceedsTheSlotDropsTheLinkAndTheBridgeGoesOn() throws Exception {
        try (ChildJvm receiver = PeerProcess.start("overflow-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm hostile = PeerProcess.start("overflow-hostile", List.of(), HostilePeer.class, "overflow",
                    "127.0.0.1:" + port, BridgePeer.SECRET)) {
                assertThat(hostile.awaitLine("RESULT linked=", START)).isEqualTo("RESULT linked=true");
                assertThat(hostile.awaitLine("RESULT dropped=", START)).isEqualTo("RESULT dropped=true");
            }
            assertThat(receiver.awaitLineContaining("arrived malformed", START)).contains("lost");
            receiver.awaitStatus(s -> number(s, "protocolErrors") >= 1, START, "the protocol error counted");
            assertThat(number(receiver.status(), "count")).isZero();
            streamExactlyOnce(receiver, port, 5_000, "overflow-sender");
        }
    }

    @Test
    void aHijackAttemptMidStreamGetsNoFrameInAndTheHundredThousandLegitimateFramesArriveExactlyOnce() throws Exception {
        long frames = 100_000;
        Map<String, String> got; // the receiver's STATUS line once every frame arrived, before the sender's close
        try (ChildJvm receiver = PeerProcess.start("hijack-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm sender = PeerProcess.start("hijack-sender", "send", "127.0.0.1:" + port, "512", "" + frames, "1")) {
                Map<String, String> streaming = receiver.awaitStatus(s -> number(s, "count") >= 5_000, START, "5,000 frames");
                long epoch = number(streaming, "epoch");
                try (ChildJvm hostile = PeerProcess.start("hijack-hostile", List.of(), HostilePeer.class, "hijack",
                        "127.0.0.1:" + port, "" + epoch, "40")) {
                    hostile.awaitLine("DONE", LONG);
                }
                got = receiver.awaitStatus(s -> number(s, "lastId") == frames, LONG, "every legitimate frame");
                sender.awaitStatus(s -> number(s, "consumed") == frames, Duration.ofSeconds(10), "every frame confirmed");
                sender.stop(Duration.ofSeconds(10));
            }
            receiver.stop(Duration.ofSeconds(10));
            assertExactlyOnce(got, frames);
            assertThat(number(got, "protocolErrors")).as("the hijacker's link messages, refused").isPositive();
            assertThat(number(got, "authFailures")).as("its HELLOs without a proof, refused").isPositive();
            assertThat(receiver.linesContaining("lost")).as("the legitimate link was never replaced").isEmpty();
        }
    }

    @Test
    void aSecondSenderOfTheChannelIsRefusedAndTheFirstGoesOnUntouched() throws Exception {
        long frames = 20_000;
        Map<String, String> got;
        try (ChildJvm receiver = PeerProcess.start("two-senders-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm first = PeerProcess.start("two-senders-first", "send", "127.0.0.1:" + port, "512", "" + frames, "1")) {
                receiver.awaitStatus(s -> number(s, "count") >= 5_000, START, "5,000 frames from the first sender");
                try (ChildJvm second = PeerProcess.start("two-senders-second", "send", "127.0.0.1:" + port, "512", "1000",
                        "1000000000")) {
                    Map<String, String> refused = second.awaitStatus(s -> "REFUSED".equals(s.get("state")), START,
                            "the second sender refused");
                    assertThat(refused.get("problem")).contains("a_second_sender_of_channel_'frames'");
                    got = receiver.awaitStatus(s -> number(s, "lastId") == frames, LONG, "every frame of the first sender");
                    assertThat(number(second.status(), "consumed")).isZero();
                    second.kill(); // its close would wait for confirmations that never come
                }
                first.awaitStatus(s -> number(s, "consumed") == frames, Duration.ofSeconds(10), "every frame confirmed");
                first.stop(Duration.ofSeconds(10));
            }
            receiver.stop(Duration.ofSeconds(10));
            assertExactlyOnce(got, frames);
            assertThat(number(got, "refusedSenders")).isPositive();
            assertThat(receiver.linesContaining("a second sender of channel 'frames'")).isNotEmpty();
            assertThat(receiver.linesContaining("lost")).as("the first sender's link was never replaced").isEmpty();
        }
    }

    @Test
    void hundredsOfRandomAndMutatedMessagesBesideALegitimateStreamFailNothingAndTheStreamArrivesExactlyOnce() throws Exception {
        long frames = 20_000;
        Map<String, String> got;
        try (ChildJvm receiver = PeerProcess.start("fuzz-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm sender = PeerProcess.start("fuzz-sender", "send", "127.0.0.1:" + port, "512", "" + frames, "1")) {
                receiver.awaitStatus(s -> number(s, "count") >= 2_000, START, "2,000 frames");
                try (ChildJvm hostile = PeerProcess.start("fuzz-hostile", List.of(), HostilePeer.class, "fuzz",
                        "127.0.0.1:" + port, "24", "400")) {
                    hostile.awaitLine("DONE", Duration.ofMinutes(2));
                }
                got = receiver.awaitStatus(s -> number(s, "lastId") == frames, LONG, "every legitimate frame");
                sender.awaitStatus(s -> number(s, "consumed") == frames, Duration.ofSeconds(10), "every frame confirmed");
                sender.stop(Duration.ofSeconds(10));
            }
            receiver.stop(Duration.ofSeconds(10));
            assertExactlyOnce(got, frames);
            assertThat(number(got, "protocolErrors")).isPositive();
            assertThat(receiver.linesContaining("state=FAILED")).isEmpty();
            assertThat(receiver.linesContaining("lost")).isEmpty();
        }
    }

    @Test
    void aNewSenderTakesOverOnlyOnceTheLinkIsStalledPastTheLinkTimeoutAndItsFramesArriveExactlyOnce() throws Exception {
        try (ChildJvm receiver = PeerProcess.start("takeover-receiver", "receive", "0", "512")) {
            int port = port(receiver);
            try (ChildJvm first = PeerProcess.start("takeover-first", "send", "127.0.0.1:" + port, "512", "1000000", "1")) {
                receiver.awaitStatus(s -> number(s, "count") >= 5_000, START, "5,000 frames from the first sender");
                first.signal("STOP"); // its heartbeat stops; the link is declared dead only past link-timeout
                long base = 1_000_000_000L;
                try (ChildJvm second = PeerProcess.start("takeover-second", "send", "127.0.0.1:" + port, "512", "5000",
                        "" + base)) {
                    receiver.awaitStatus(s -> number(s, "lastId") == base + 4_999, LONG, "the new sender's frames");
                    second.awaitStatus(s -> number(s, "consumed") == 5_000, Duration.ofSeconds(10), "every frame confirmed");
                    assertThat(receiver.linesContaining("took over the link, whose heartbeat had stopped")).hasSize(1);
                    first.signal("CONT"); // back, it finds the channel linked to another sender: refused
                    first.awaitStatus(s -> "REFUSED".equals(s.get("state")), START, "the first sender refused once back");
                    second.stop(Duration.ofSeconds(10));
                }
                first.kill();
            }
            Map<String, String> got = receiver.status();
            assertThat(number(got, "epochs")).isEqualTo(2);
            assertThat(number(got, "epochFirstId")).isEqualTo(1_000_000_000L);
            assertThat(number(got, "duplicates")).isZero();
            assertThat(number(got, "gaps")).isZero();
            assertThat(number(got, "corrupt")).isZero();
            assertThat(receiver.linesContaining("state=FAILED")).isEmpty();
        }
    }

    /** A legitimate sender (the right secret) carries {@code frames} frames to {@code receiver}; each arrives once. */
    private static void streamExactlyOnce(ChildJvm receiver, int port, long frames, String name) throws Exception {
        long before = number(receiver.status(), "count");
        try (ChildJvm sender = PeerProcess.start(name, "send", "127.0.0.1:" + port, "512", "" + frames, "1")) {
            receiver.awaitStatus(s -> number(s, "lastId") == frames, LONG, "every frame of " + name);
            sender.awaitStatus(s -> number(s, "consumed") == frames, Duration.ofSeconds(10), "every frame confirmed");
            sender.stop(Duration.ofSeconds(10));
        }
        Map<String, String> got = receiver.status();
        assertThat(number(got, "count") - before).isEqualTo(frames);
        assertThat(number(got, "duplicates")).isZero();
        assertThat(number(got, "gaps")).isZero();
        assertThat(number(got, "corrupt")).isZero();
    }

    private static void assertExactlyOnce(Map<String, String> got, long frames) {
        assertThat(number(got, "count")).isEqualTo(frames);
        assertThat(number(got, "epochs")).isEqualTo(1);
        assertThat(number(got, "duplicates")).isZero();
        assertThat(number(got, "gaps")).isZero();
        assertThat(number(got, "corrupt")).as("no foreign frame").isZero();
        assertThat(number(got, "reconnects")).as("the link never replaced").isZero();
    }

    private static int port(ChildJvm receiver) {
        String ready = receiver.awaitLine("READY", START);
        return Integer.parseInt(ready.substring(ready.indexOf('=') + 1).trim());
    }

    private static long number(Map<String, String> status, String key) {
        return Long.parseLong(status.getOrDefault(key, "-1"));
    }
}
