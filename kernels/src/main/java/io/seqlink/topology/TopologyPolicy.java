package io.seqlink.topology;

import java.util.Objects;

/**
 * What channels require of their links.
 *
 * @param required      the least link class a channel may use without the policy stepping in
 * @param onUnsupported what happens when a link is worse
 */
public record TopologyPolicy(LinkClass required, UnsupportedLinkPolicy onUnsupported) {

    public TopologyPolicy {
        Objects.requireNonNull(required, "required");
        Objects.requireNonNull(onUnsupported, "onUnsupported");
    }

    /** Any link class is fine: channels use what each link supports. */
    public static TopologyPolicy lenient() {
        return new TopologyPolicy(LinkClass.HOST_STAGED, UnsupportedLinkPolicy.FALLBACK);
    }
}
