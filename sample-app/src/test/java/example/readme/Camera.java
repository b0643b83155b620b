package example.readme;

import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

@Component
public class Camera {
    private final PublishChannel frames;

    public Camera(@Qualifier("frames") PublishChannel frames) {   // one PublishChannel bean per channel
        this.frames = frames;
    }

    /** Publishes one frame; false while every slot is still being read (lossless backpressure). */
    public boolean send(long timestamp, byte[] pixels) {
        long seq = frames.tryClaim();                       // > 0: the frame's sequence; < 0: a ClaimStatus
        if (seq < 0) {
            return false;
        }
        ByteBuffer slot = frames.buffer();                  // the claimed slot's staging buffer, little-endian
        slot.putLong(0, timestamp).put(8, pixels);
        frames.commit(8 + pixels.length);                   // copied to GPU 0 on the channel's stream
        frames.publish();                                   // one release-ordered atomic add: GPU 1 may read it
        return true;
    }
}
