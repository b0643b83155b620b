package io.seqlink;

import io.seqlink.topology.TopologyVerifier;

/**
 * How the runtime names a setting when its messages advise one: by default the Java builder call a plain
 * Java user writes; a layer with its own configuration gives its own names (the Spring starter names the
 * property, {@code seqlink.channels.frames.transport=host-staged}), so its users are never told to call a
 * builder they do not see. Implementations are stateless; any thread.
 */
@FunctionalInterface
public interface SettingNames {

    /** The runtime's own names: the builder calls of {@link io.seqlink.channel.ChannelSpec.Builder}. */
    SettingNames JAVA = channel -> TopologyVerifier.FORCE_HOST_STAGED;

    /**
     * The setting that pins channel {@code channel}'s transport to host-staged; {@code channel} is
     * {@code <name>} where the advice is for whichever channel uses a link.
     */
    String hostStagedTransport(String channel);
}
