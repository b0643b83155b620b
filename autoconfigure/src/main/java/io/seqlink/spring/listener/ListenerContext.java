package io.seqlink.spring.listener;

import io.seqlink.topology.Transport;

/**
 * Where a {@link ChannelListener} call comes from. A flyweight like the frame: valid only during the
 * call it was passed to.
 */
public interface ListenerContext {

    /** The listener's id ({@code beanName.methodName} unless set). */
    String listenerId();

    /** The channel's name. */
    String channel();

    /** The producer device of the channel; -1 for a channel attached from another process (its producer's device is that process's). */
    int producer();

    /** The consumer device this call is for. */
    int device();

    /** The transport that brings frames to this consumer. */
    Transport transport();

    /** 1 on the first delivery of this frame (or batch), more when a failed delivery is retried. */
    int attempt();
}
