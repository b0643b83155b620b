package io.seqlink.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.backend.emulated.LinkMode;
import org.junit.jupiter.api.Test;

/**
 * A {@code PEER_COPY} verdict says what it rests on, from the push direction's attributes: native atomics
 * there put the replica's words inside the CUDA memory model's atomicity guarantee; without them the
 * verdict says plainly that they rest on practice and the stamp check, and how to get the guarantee.
 */
class PeerCopyStandingTest {

    private static LinkVerdict verdict(EmulatedTopology topology) {
        try (EmulatedBackend backend = new EmulatedBackend(topology)) {
            return new TopologyVerifier(backend, VerifierSettings.defaults()).verifyLink(0, 1, true);
        }
    }

    @Test
    void aPcieLinkIsPeerCopyOutsideTheModelsGuaranteeAndSaysSo() {
        LinkVerdict v = verdict(EmulatedTopology.builder(2).link(0, 1, LinkMode.PCIE_PEER).build());
        assertThat(v.verdict()).isEqualTo(LinkClass.PEER_COPY);
        assertThat(v.push().nativeAtomics()).isFalse();
        assertThat(v.reason()).contains("push direction 0 -> 1 has no native atomics")
                .contains("outside the CUDA memory model's atomicity guarantee")
                .contains("set the channel's transport: ChannelSpec.Builder.transport(Transport.HOST_STAGED)")
                .as("the runtime names its Java API, never a Spring property").doesNotContain("seqlink.");
    }

    @Test
    void peerCopyOverALinkWithPushAtomicsIsInsideTheGuarantee() {
        // pull without atomics (PCIe peer 1 -> 0), push with them (NVLink-class 0 -> 1)
        LinkVerdict v = verdict(EmulatedTopology.builder(2).directed(1, 0, LinkMode.PCIE_PEER).directed(0, 1, LinkMode.NVLINK)
                .build());
        assertThat(v.verdict()).isEqualTo(LinkClass.PEER_COPY);
        assertThat(v.reason()).contains("push direction 0 -> 1 has native atomics");
    }
}
