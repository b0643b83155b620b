package io.seqlink.channel.consumer;

import io.seqlink.backend.Backend;
import io.seqlink.topology.Transport;
import org.jspecify.annotations.Nullable;

/** What the runtime asks of the transports a consumer can use before it opens a channel. Every method is safe from any thread. */
public final class Transports {

    private Transports() {
    }

    /**
     * Why {@code transport}, forced by a channel's spec, cannot serve {@code producer -> consumer} on {@code backend},
     * or {@code null} when it can ({@link Transport#AUTO} always can: the runtime picks from the verdict).
     */
    public static @Nullable String problem(Transport transport, Backend backend, int producer, int consumer) {
        return transport == Transport.AUTO ? null : ConsumerLink.of(transport).problem(backend, producer, consumer);
    }
}
