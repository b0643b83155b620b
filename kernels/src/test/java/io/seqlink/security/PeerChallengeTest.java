package io.seqlink.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.security.PeerChallenge.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerChallengeTest {

    private final SharedSecret secret = SharedSecret.of("correct horse battery staple", "test.secret");
    private final PeerChallenge challenge = new PeerChallenge(secret);

    @Test
    void bothSidesProveTheSecretOverBothNonces() {
        byte[] ni = PeerChallenge.newNonce();
        byte[] nr = PeerChallenge.newNonce();
        byte[] responder = challenge.proof(Role.RESPONDER, "frames", 7, ni, nr);
        byte[] initiator = challenge.proof(Role.INITIATOR, "frames", 7, ni, nr);

        PeerChallenge peer = new PeerChallenge(SharedSecret.of("correct horse battery staple", "peer.secret"));
        assertThat(peer.verify(responder, Role.RESPONDER, "frames", 7, ni, nr)).isTrue();
        assertThat(peer.verify(initiator, Role.INITIATOR, "frames", 7, ni, nr)).isTrue();
        assertThat(initiator).hasSize(PeerChallenge.PROOF_BYTES).isNotEqualTo(responder);
    }

    @Test
    void aReplayedProofFailsAgainstAFreshNonce() {
        byte[] ni = PeerChallenge.newNonce();
        byte[] recorded = challenge.proof(Role.INITIATOR, "frames", 1, ni, PeerChallenge.newNonce());
        assertThat(challenge.verify(recorded, Role.INITIATOR, "frames", 1, ni, PeerChallenge.newNonce())).isFalse();
    }

    @Test
    void aReflectedProofOrAnotherChannelEpochOrSecretFails() {
        byte[] ni = PeerChallenge.newNonce();
        byte[] nr = PeerChallenge.newNonce();
        byte[] responder = challenge.proof(Role.RESPONDER, "frames", 1, ni, nr);
        assertThat(challenge.verify(responder, Role.INITIATOR, "frames", 1, ni, nr)).as("reflection").isFalse();
        assertThat(challenge.verify(responder, Role.RESPONDER, "other", 1, ni, nr)).as("channel").isFalse();
        assertThat(challenge.verify(responder, Role.RESPONDER, "frames", 2, ni, nr)).as("epoch").isFalse();
        PeerChallenge wrong = new PeerChallenge(SharedSecret.of("another secret of enough length", "x"));
        assertThat(wrong.verify(responder, Role.RESPONDER, "frames", 1, ni, nr)).as("secret").isFalse();
    }

    @Test
    void hostileLengthsAreFalseNotExceptions() {
        byte[] nonce = PeerChallenge.newNonce();
        assertThat(challenge.verify(new byte[3], Role.INITIATOR, "frames", 1, nonce, nonce)).isFalse();
        assertThat(challenge.verify(new byte[32], Role.INITIATOR, "frames", 1, new byte[0], nonce)).isFalse();
        assertThat(challenge.verify(new byte[32], Role.INITIATOR, "frames", 1, nonce, new byte[99])).isFalse();
    }

    @Test
    void aSecretNeverPrintsAndAShortOneIsRefusedNamingTheSetting(@TempDir Path dir) throws Exception {
        assertThat(secret.toString()).doesNotContain("horse").contains("redacted");
        assertThatThrownBy(() -> SharedSecret.of("short", "seqlink.ucx.receivers.frames.secret"))
                .hasMessageContaining("seqlink.ucx.receivers.frames.secret").hasMessageNotContaining("short,");
        Path file = dir.resolve("secret");
        Files.writeString(file, "  correct horse battery staple\n");
        assertThat(SharedSecret.fromFile(file, "secret-file")).isEqualTo(secret);
        assertThatThrownBy(() -> SharedSecret.fromFile(dir.resolve("missing"), "secret-file"))
                .hasMessageContaining("missing").hasMessageContaining("secret-file");
    }
}
