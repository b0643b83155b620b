package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.topology.LinkClass;
import io.seqlink.topology.LinkVerdict;
import io.seqlink.topology.TopologyVerifier;
import io.seqlink.topology.UnsupportedLinkException;
import java.util.Locale;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a channel whose link is worse than {@code seqlink.topology.required-link-class} under policy fail. */
class UnsupportedLinkFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedLinkException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedLinkException cause) {
        LinkVerdict v = cause.verdict();
        String found = kebab(v.verdict());
        String description = "seqlink channel '" + cause.channel() + "' needs link " + v.producer() + " -> " + v.consumer()
                + " to be at least " + kebab(cause.required()) + " (seqlink.topology.required-link-class), but the "
                + "verifier found " + found + ":\n\n    " + inSpringTerms(v.reason(), cause.channel())
                + "\n\nseqlink.topology.on-unsupported is 'fail', "
                + "so startup stops.";
        String action = "Do one of:\n\n"
                + "    - set seqlink.topology.required-link-class=" + found + " to accept this link,\n"
                + "    - set seqlink.topology.on-unsupported=fallback (use the " + found + " transport, health UP) or warn "
                + "(the same, health DEGRADED),\n"
                + "    - move channel '" + cause.channel() + "' (seqlink.channels." + cause.channel() + ".producer/consumers) "
                + "to devices with a faster link,\n"
                + "    - or fix the link: check peer access and NVLink (nvidia-smi topo -m), PCIe ACS/IOMMU settings, and "
                + "in a virtual machine a GPUDirect clique.\n"
                + (v.verdict() == LinkClass.PEER_ATOMIC ? "" : "The link matrix with the probe's figures is logged at startup "
                        + "and shown at /actuator/seqlink once the application runs.\n");
        return new FailureAnalysis(description, action, cause);
    }

    /** The verdict's reason with the runtime's Java-API advice put as this channel's property. */
    static String inSpringTerms(String reason, String channel) {
        return reason.replace(TopologyVerifier.FORCE_HOST_STAGED, "seqlink.channels." + channel + ".transport=host-staged");
    }

    private static String kebab(LinkClass c) {
        return c.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
