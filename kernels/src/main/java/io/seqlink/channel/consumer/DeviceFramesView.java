package io.seqlink.channel.consumer;

import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.FrameContext;

/**
 * The frames of one device round as a device listener sees them: one per delivery, set for each round it is handed
 * ({@link #round}), valid during the listener's call. {@link #memory()} is where the listener reads the frames: the
 * consumer's local ring in copy mode, the source ring in direct mode, and for a round kernel (which reads the frames
 * where they are) always the source ring. A frame's trace context is read through the port's {@link ProducerView}, from
 * the header words the producer's host wrote.
 */
final class DeviceFramesView implements DeviceFrames {

    private final DeliveryContext ctx;
    private final Memory memory;
    /** {@link #hasContext}'s copy: the listener's thread only, one call at a time. */
    private final FrameContext scratch = new FrameContext();
    private long first;
    private long last;
    private long round;
    private boolean armed;

    DeviceFramesView(DeliveryContext ctx, Memory memory) {
        this.ctx = ctx;
        this.memory = memory;
    }

    /** Sets the view to round {@code r}. */
    void round(Round r) {
        first = r.from;
        last = r.to;
        round = r.number;
        armed = r.armed;
    }

    @Override
    public String channel() {
        return ctx.channel();
    }

    @Override
    public int consumerDevice() {
        return ctx.device();
    }

    @Override
    public long first() {
        return first;
    }

    @Override
    public long last() {
        return last;
    }

    @Override
    public Memory memory() {
        return memory;
    }

    @Override
    public long payloadOffset(long sequence) {
        return ctx.geometry().payloadOffsetOf(sequence);
    }

    @Override
    public long headerOffset(long sequence) {
        return ctx.geometry().offsetOf(sequence);
    }

    @Override
    public Memory descriptor() {
        return ctx.steps().block;
    }

    @Override
    public Memory acknowledgement() {
        return ctx.steps().mirror;
    }

    @Override
    public DeviceStream stream() {
        return ctx.steps().stream;
    }

    @Override
    public ConsumeKernel consumeHandles() {
        return ctx.steps().consume;
    }

    @Override
    public long round() {
        return round;
    }

    @Override
    public boolean armed() {
        return armed;
    }

    @Override
    public boolean hasContext(long sequence) {
        return context(sequence, scratch);
    }

    @Override
    public boolean context(long sequence, FrameContext into) {
        if (sequence < first || sequence > last) {
            throw new IllegalArgumentException("frame " + sequence + " is not in this round of channel '" + ctx.channel()
                    + "' (frames " + first + ".." + last + "); ask for the context of a frame of the round");
        }
        return ctx.producer().context(sequence, into);
    }
}
