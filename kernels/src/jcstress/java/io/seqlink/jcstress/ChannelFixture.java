package io.seqlink.jcstress;

import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedFaults;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.lifecycle.ChannelEvents;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.lifecycle.Channels;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.ReadMode;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A real channel (producer device 0, consumer device 1) on a private emulated backend with INLINE
 * streams, so every step of the protocol—commit copy, publish step, consume step, host staging, ack
 * step—runs on the thread of the actor that triggers it, over off-heap memory, through the same code
 * the launcher drives. One fixture per jcstress state: nothing is shared between states, and a
 * state's memory goes away with it (never closed: closing would drain and log).
 */
final class ChannelFixture {

    static final int PRODUCER = 0;
    static final int CONSUMER = 1;

    final PublishChannel channel;
    final ConsumerPort port;
    /** The fixture's backend's fault injection. */
    final EmulatedFaults faults;
    /** The fixture's own backend (its live allocations show what the channel still holds). */
    final EmulatedBackend backend;

    ChannelFixture(Delivery delivery, ReadMode readMode, Transport transport, int slots, int slotBytes, FrameHandler handler) {
        this(delivery, readMode, transport, slots, slotBytes, 1, handler);
    }

    ChannelFixture(Delivery delivery, ReadMode readMode, Transport transport, int slots, int slotBytes, int maxPublishBatch,
            FrameHandler handler) {
        this.backend = backend();
        this.faults = backend.faults();
        this.channel = open(backend, delivery, readMode, transport, slots, slotBytes, maxPublishBatch);
        // Subscribed here, not in the actor: the first subscription allocates the host ring.
        this.port = channel.consumer(CONSUMER).subscribe(handler);
    }

    /** A fixture whose consumer has a device listener (its kernels run in the consumer's emulated stream). */
    ChannelFixture(Transport transport, int slots, int slotBytes, DeviceFrameHandler device) {
        this.backend = backend();
        this.faults = backend.faults();
        this.channel = open(backend, Delivery.LOSSLESS, ReadMode.COPY, transport, slots, slotBytes, 1);
        this.port = channel.consumer(CONSUMER).subscribeDevice(device);
    }

    private static EmulatedBackend backend() {
        return new EmulatedBackend(EmulatedTopology.builder(2).streamQueueCapacity(16).build());
    }

    private static PublishChannel open(EmulatedBackend backend, Delivery delivery, ReadMode readMode, Transport transport, int slots,
            int slotBytes, int maxPublishBatch) {
        ChannelSpec spec = ChannelSpec.builder("jcstress").producer(PRODUCER).consumers(CONSUMER).slots(slots)
                .slotBytes(slotBytes).delivery(delivery).readMode(readMode).transport(transport).maxPublishBatch(maxPublishBatch)
                .build();
        return Channels.open(backend, spec, Map.of(CONSUMER, transport), ChannelEvents.NONE);
    }

    /** Publishes one frame whose every 64-bit word is {@code word}; returns the claim result (sequence or status). */
    long publishWords(long word, int bytes) {
        long seq = channel.tryClaim();
        if (seq > 0) {
            ByteBuffer b = channel.buffer();
            for (int i = 0; i < bytes; i += 8) {
                b.putLong(i, word);
            }
            channel.commit(bytes);
            channel.publish();
        }
        return seq;
    }

    /** One consume round with the subscribed handler (INLINE: it completes inside the call). */
    int poll(int maxFrames) {
        return port.poll(maxFrames);
    }

    /**
     * One consume round racing a listener's removal: a poll that finds the listener gone is refused with
     * {@link IllegalStateException} (the documented answer for a port without a listener) and took nothing.
     */
    int pollRacingRemoval(int maxFrames) {
        try {
            return port.poll(maxFrames);
        } catch (IllegalStateException noListener) {
            return 0;
        }
    }

    /** How many of the payload's 64-bit words equal {@code expected}. */
    static int wordsEqual(ByteBuffer payload, long expected) {
        int n = 0;
        for (int i = 0; i + 8 <= payload.limit(); i += 8) {
            if (payload.getLong(i) == expected) {
                n++;
            }
        }
        return n;
    }
}
