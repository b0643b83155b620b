package io.seqlink.sample.pipeline;

import io.seqlink.channel.DeviceFrames;
import io.seqlink.spring.listener.ChannelListener;

/**
 * The inference stage as a {@code @ChannelListener}: one consumer per device of the frames channel
 * (the annotation's default), each called once per consume round with the round's frames on its
 * device. It only enqueues kernels on the round's stream; the seqlink launcher enqueues the ack after
 * them, so the frames' slots are released exactly when the inference has read them.
 */
public class InferenceListener {

    private final Pipeline pipeline;

    public InferenceListener(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    @ChannelListener(channel = "${sample.pipeline.frames-channel:frames}", id = "inference")
    public void infer(DeviceFrames frames) {
        pipeline.infer(frames);
    }
}
