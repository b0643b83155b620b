package io.seqlink.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Who a bridge trusts, in plain Java: the secret is required, never shown; the wildcard and the allowlist. */
class BridgeSecurityTests {

    private static final ChannelSpec SPEC = ChannelSpec.builder("frames").producer(0).consumers(1).slots(64).slotBytes(1024).build();

    @Test
    void withoutASecretOrAnExplicitOptOutABridgeDoesNotOpenAndTheErrorNamesTheFix() {
        assertThatThrownBy(() -> BridgeSettings.defaults().checked("ucx.receivers.frames.", new InetSocketAddress("127.0.0.1", 0)))
                .isInstanceOf(SeqlinkConfigurationException.class).hasMessageContaining("ucx.receivers.frames.secret")
                .hasMessageContaining("BridgeSettings.withSecret").hasMessageContaining("allowingUnauthenticated()");
        assertThat(BridgeSettings.defaults().allowingUnauthenticated().checked("ucx.senders.frames.", null)).isNotNull();
    }

    @Test
    void aWildcardListenAddressNeedsAnExplicitChoice() {
        BridgeSettings s = InProcessRig.authenticated(BridgeSettings.defaults());
        assertThatThrownBy(() -> s.checked("ucx.receivers.frames.", new InetSocketAddress(13337)))
                .isInstanceOf(SeqlinkConfigurationException.class).hasMessageContaining("ucx.receivers.frames.listen")
                .hasMessageContaining("10.0.0.2:13337").hasMessageContaining("allowingWildcard()");
        assertThat(s.allowingWildcard().checked("ucx.receivers.frames.", new InetSocketAddress(13337))).isNotNull();
    }

    @Test
    void theSecretNeverShowsInTheSettings() {
        BridgeSettings s = InProcessRig.authenticated(BridgeSettings.defaults());
        assertThat(s.toString()).doesNotContain("in-process-test-secret").contains("secret=redacted");
    }

    @Test
    void onlyLoopbackAddressesPinUcxToTheLoopbackDevice() {
        assertThat(UcxNetDevices.forAddresses(List.of(new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("::1", 2))))
                .contains("lo");
        assertThat(UcxNetDevices.forAddresses(List.of(new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress(3)))).isEmpty();
        assertThat(UcxNetDevices.forAddresses(List.of())).isEmpty();
    }

    @Test
    void aSenderFromAnAddressNotInTheAllowlistIsRejectedCountedAndShownNeverLinked() throws Exception {
        UcxAvailable.assumeUcx();
        try (InProcessRig rig = new InProcessRig()) {
            PublishChannel out = rig.sending.openChannel(SPEC);
            PublishChannel in = rig.receiving.openChannel(SPEC);
            rig.receiving.start();
            BridgeSettings settings = InProcessRig.authenticated(BridgeSettings.defaults());
            ReceivingBridge rx = rig.ucx.openReceiver(in, new InetSocketAddress("127.0.0.1", 0),
                    settings.withAllowedPeers(List.of(InetAddress.getByName("10.9.9.9"))));
            SendingBridge tx = rig.ucx.openSender(out, 1, rx.boundAddress(), settings);
            rig.sending.start();
            InProcessRig.awaitThat(() -> rx.snapshot().refusals().handshakes() >= 1, "the connection rejected and counted");
            BridgeSnapshot.Refusals r = rx.snapshot().refusals();
            assertThat(r.last()).contains("not in allowed-peers").contains("127.0.0.1");
            assertThat(r.recent(60_000)).isTrue();
            assertThat(rx.state()).isNotEqualTo(LinkState.CONNECTED);
            assertThat(tx.state()).isNotEqualTo(LinkState.CONNECTED);
            tx.close(java.time.Duration.ofMillis(100));
        }
    }

    @Test
    void aSenderWithoutASecretIsRefusedByAReceiverThatRequiresOneAndTheRefusalNamesTheSetting() throws Exception {
        UcxAvailable.assumeUcx();
        try (InProcessRig rig = new InProcessRig()) {
            PublishChannel out = rig.sending.openChannel(SPEC);
            PublishChannel in = rig.receiving.openChannel(SPEC);
            rig.receiving.start();
            ReceivingBridge rx = rig.ucx.openReceiver(in, new InetSocketAddress("127.0.0.1", 0),
                    InProcessRig.authenticated(BridgeSettings.defaults()));
            SendingBridge tx = rig.ucx.openSender(out, 1, rx.boundAddress(), BridgeSettings.defaults().allowingUnauthenticated());
            rig.sending.start();
            InProcessRig.awaitThat(() -> tx.state() == LinkState.REFUSED, "the sender refused");
            assertThat(tx.snapshot().problem()).contains("requires authentication", "seqlink.ucx.senders.frames.secret",
                    "BridgeSettings.withSecret");
            assertThat(rx.snapshot().refusals().authFailures()).isPositive();
            tx.close(java.time.Duration.ofMillis(100));
        }
    }

    @Test
    void aSenderWithASecretRefusesAReceiverThatAcceptsWithoutChallenging() throws Exception {
        UcxAvailable.assumeUcx();
        try (InProcessRig rig = new InProcessRig()) {
            PublishChannel out = rig.sending.openChannel(SPEC);
            PublishChannel in = rig.receiving.openChannel(SPEC);
            rig.receiving.start();
            ReceivingBridge rx = rig.ucx.openReceiver(in, new InetSocketAddress("127.0.0.1", 0),
                    BridgeSettings.defaults().allowingUnauthenticated());
            SendingBridge tx = rig.ucx.openSender(out, 1, rx.boundAddress(), InProcessRig.authenticated(BridgeSettings.defaults()));
            rig.sending.start();
            InProcessRig.awaitThat(() -> tx.state() == LinkState.REFUSED, "the sender refusing the receiver");
            assertThat(tx.snapshot().problem()).contains("without authenticating");
            assertThat(tx.snapshot().refusals().authFailures()).isPositive();
            tx.close(java.time.Duration.ofMillis(100));
        }
    }
}
