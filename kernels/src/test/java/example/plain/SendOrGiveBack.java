package example.plain;

import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import java.util.function.ToIntFunction;

public class SendOrGiveBack {

    /**
     * Claims a slot, lets {@code encoder} write the frame into it (it returns the length) and publishes
     * it; a claim whose write throws is given back. Returns the sequence, or CLOSED / FAILED.
     */
    public static long send(PublishChannel frames, ToIntFunction<ByteBuffer> encoder) {
        long seq;
        while ((seq = frames.tryClaim()) == ClaimStatus.BACK_PRESSURED) {
            Thread.onSpinWait();                                 // a consumer is behind, or other threads' frames are in flight
        }
        if (seq < 0) {
            return seq;                                          // CLOSED or FAILED: stop producing
        }
        try {
            int length = encoder.applyAsInt(frames.buffer());    // may throw
            frames.commit(length);
            frames.publish();
        } finally {
            frames.abandon();                                    // gives the claim back unless the commit happened
        }
        return seq;
    }
}
