package io.seqlink.autoconfigure;

import io.seqlink.channel.ChannelSpec;

/**
 * Changes a channel's specification the auto-configuration made from {@code seqlink.channels.<name>} before the
 * channel opens: for what properties do not say. The usual one: host listeners registered in code (through
 * {@link io.seqlink.spring.listener.ChannelListenerEndpointRegistry}) that the starter cannot find among the
 * {@code @ChannelListener} methods, named with {@link ChannelSpec#withHostListeners} so the producer pushes their
 * frames into host memory. Beans of this type are applied in {@link org.springframework.core.Ordered order}, on the
 * thread that makes the runtime bean; the runtime validates what they return.
 */
@FunctionalInterface
public interface ChannelSpecCustomizer {

    /** The specification channel {@code name} opens with; {@code spec} itself to leave it as it is. */
    ChannelSpec customize(String name, ChannelSpec spec);
}
