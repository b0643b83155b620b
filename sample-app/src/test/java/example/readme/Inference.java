package example.readme;

import io.seqlink.channel.Frame;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ListenerContext;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

@Component
public class Inference {
    private final AtomicLong received = new AtomicLong();

    @ChannelListener(channel = "frames")                    // called for GPU 1, one frame at a time, in order
    void onFrame(Frame frame, ListenerContext context) {
        ByteBuffer payload = frame.payload();               // a flyweight, valid during the call: copy what you keep
        long timestamp = payload.getLong(0);
        // ... run the model on the pixels at payload.position(8) (or take DeviceFrames to enqueue GPU kernels) ...
        received.incrementAndGet();
    }

    /** Frames taken so far. */
    public long received() {
        return received.get();
    }
}
