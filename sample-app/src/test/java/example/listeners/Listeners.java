package example.listeners;

import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ListenerContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

@Component
class Listeners {
    final Map<Integer, AtomicLong> events = new ConcurrentHashMap<>();   // per consumer device
    final AtomicLong batchedFrames = new AtomicLong();
    final AtomicLong deviceRounds = new AtomicLong();

    // No device: one consumer per device in seqlink.channels.events.consumers, each calling this
    // method on its own launcher thread (so devices run it concurrently; each one in sequence order).
    @ChannelListener(channel = "events")
    void onEvent(Frame frame, ListenerContext context) {
        long id = frame.payload().getLong(0);                             // the payload starts at index 0
        events.computeIfAbsent(context.device(), d -> new AtomicLong()).incrementAndGet();
    }

    // One device, a batch per consume round: up to seqlink.launcher.batch-size frames, in order.
    @ChannelListener(channel = "telemetry", device = 1)
    void onTelemetry(List<Frame> frames) {
        batchedFrames.addAndGet(frames.size());
    }

    // Device work: enqueue kernels on frames.stream() that read frames.memory() at payloadOffset(seq);
    // the frames are acknowledged only after that work has run.
    @ChannelListener(channel = "tensors", device = 2, id = "tensor-reader")
    void onTensors(DeviceFrames frames) {
        deviceRounds.incrementAndGet();
    }
}

@Component
class DeadLetters implements FrameErrorHandler {                        // replaces the logging default
    final AtomicLong received = new AtomicLong();

    @Override
    public void onFailedFrame(Frame frame, Exception cause) {              // after seqlink.listener.retry.max-attempts
        byte[] copy = new byte[frame.length()];                            // the frame is a flyweight: copy it
        frame.payload().get(copy);
        received.incrementAndGet();                                        // e.g. store copy for a person to look at
    }
}
