package io.seqlink.autoconfigure;

import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

/** Properties and helpers shared by the tests: a small channel on the emulated backend. */
public final class TestChannels {

    /** Two emulated devices, links probed, a 16-slot channel 'frames' from device 0 to device 1. */
    public static final String[] EMULATED_FRAMES = {
            "seqlink.backend=emulated",
            "seqlink.channels.frames.producer=0",
            "seqlink.channels.frames.consumers=1",
            "seqlink.channels.frames.slots=16",
            "seqlink.channels.frames.slot-size=256B" };

    private TestChannels() {
    }

    /** Publishes {@code value} as an 8-byte frame, waiting for a free slot; the sequence. */
    public static long publishLong(PublishChannel channel, long value) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            long seq = channel.claim(100, TimeUnit.MILLISECONDS);
            if (seq > 0) {
                channel.buffer().putLong(0, value);
                channel.commit(8);
                channel.publish();
                return seq;
            }
            if (seq != ClaimStatus.BACK_PRESSURED || System.nanoTime() > deadline) {
                throw new IllegalStateException("claim failed: " + ClaimStatus.describe(seq));
            }
        }
    }

    /** The first 8 bytes of a payload as a little-endian long. */
    public static long readLong(ByteBuffer payload) {
        return payload.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(0);
    }
}
