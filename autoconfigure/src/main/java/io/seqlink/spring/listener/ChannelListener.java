package io.seqlink.spring.listener;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.core.annotation.AliasFor;

/**
 * Marks a bean method as the listener of a seqlink channel's consumers. The launcher calls it on the
 * consumer device's loop thread, once per frame or once per consume round, in sequence order.
 *
 * <p>Accepted parameters, in any order:
 * <ul>
 * <li>exactly one of: a {@link io.seqlink.channel.Frame} (one call per frame), a
 * {@code List<Frame>} (one call per consume round, a batch), or a
 * {@link io.seqlink.channel.DeviceFrames} (device work enqueued on the consumer's stream);</li>
 * <li>optionally a {@link ListenerContext}: channel, consumer device, attempt.</li>
 * </ul>
 *
 * <p><strong>Frames are flyweights</strong>: a {@code Frame}, the batch list, the context and the
 * payload buffer are reused for the next frame. They are valid only while the method runs; using a
 * kept {@code Frame}, list or context afterwards throws {@link IllegalStateException}. Copy what you
 * keep (e.g. {@code byte[] copy = new byte[frame.length()]; frame.payload().get(copy);}).
 *
 * <p>A method that throws is called again with the same frame (or batch) after a backoff
 * ({@code seqlink.listener.retry.*}); after the last attempt the frame is handed to the
 * {@link io.seqlink.channel.FrameErrorHandler} bean (the dead-letter hook). If that throws too, the
 * consumer stops at the frame and delivers it again later: no frame is silently lost (delivery is at
 * least once).
 *
 * <pre>{@code
 * @ChannelListener(channel = "frames")
 * void onFrame(Frame frame, ListenerContext context) {
 *     long checksum = checksum(frame.payload());
 *     ...
 * }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ChannelListener {

    /** Listen on every consumer device of the channel. */
    int ALL_DEVICES = -1;

    /** Alias for {@link #channel()}. */
    @AliasFor("channel")
    String value() default "";

    /**
     * The channel, as named under {@code seqlink.channels}. Placeholders such as
     * {@code ${app.channel}} are resolved.
     */
    @AliasFor("value")
    String channel() default "";

    /**
     * The consumer device to listen on; {@link #ALL_DEVICES} (the default) runs the method for every
     * consumer device of the channel, one consumer per device. A device runs one listener per channel.
     */
    int device() default ALL_DEVICES;

    /** An id for logs, health and the endpoint; default {@code beanName.methodName}. */
    String id() default "";

    /**
     * For a {@link io.seqlink.channel.DeviceFrames} listener: whether it takes armed rounds
     * ({@link io.seqlink.channel.DeviceFrameHandler#acceptsArmedRounds}). When the consumer has caught up, the
     * method is then called for the next frame BEFORE that frame is published, and the work it enqueues waits on
     * the stream for it; its kernels must read the round's descriptor in stream order and do nothing for a frame
     * the round did not take ({@code seqlink::device::round_frames}), since a round may be released without its
     * frame (a pause, a close, the stall timeout). Saves a host hop per frame when the consumer is idle. Default
     * {@code false}; only for {@code DeviceFrames} listeners.
     */
    boolean armedRounds() default false;

    /**
     * For a {@link io.seqlink.channel.DeviceFrames} listener: whether the round's last kernel the method enqueues
     * acknowledges the round ({@link io.seqlink.channel.DeviceFrameHandler#acknowledgesInKernel}:
     * {@code seqlink::device::acknowledge_taken_at_end} with {@code DeviceFrames.acknowledgement()}), so the channel
     * enqueues no ack step. Every call that returns normally must enqueue that kernel, or the producer stalls on
     * backpressure. Default {@code false}; only for {@code DeviceFrames} listeners.
     */
    boolean acknowledgesInKernel() default false;

    /**
     * For a {@link io.seqlink.channel.DeviceFrames} listener: whether the one kernel the method enqueues per call
     * is the whole round ({@link io.seqlink.channel.DeviceFrameHandler#consumesInKernel}: it begins with
     * {@code seqlink::device::take_round} and ends with {@code end_round}, given {@code DeviceFrames.consumeHandles()},
     * {@code first()}, {@code last()} and {@code round()}), so the channel enqueues neither its consume step nor an
     * ack. Lossless channels only (startup fails otherwise). Default {@code false}; only for {@code DeviceFrames}
     * listeners.
     */
    boolean consumesInKernel() default false;
}
