package io.seqlink.channel;

import io.seqlink.backend.DeviceStream;
import io.seqlink.topology.Transport;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One consumer of a channel, on one device: subscribe a listener and let the launcher drive it, or poll it
 * yourself. A port has at most one listener at a time, of one of three kinds: a {@link FrameHandler} (one call per
 * frame, on the host), a {@link FrameBatchHandler} (one call per round of frames, on the host) or a
 * {@link DeviceFrameHandler} (device work enqueued per round). Nothing here allocates per frame.
 *
 * <h2>Listeners come and go</h2>
 * A subscription replaces the port's listener as a whole, atomically. Once {@link #unsubscribe()} (or a
 * {@code subscribe*} that replaces a listener) returns, the old listener is never called again: a call already in
 * progress on another thread finishes, and no frame it had not been handed reaches it. The frames it was not handed,
 * and a frame it refused after its removal (it threw), stay unacknowledged, are not retried on it nor dead-lettered,
 * and the next listener takes over from the first unacknowledged frame. A round armed for the old listener ahead of
 * its frame is released before the call returns, so a port without a listener holds nothing armed on its stream.
 *
 * <table>
 * <caption>Threading contract</caption>
 * <tr><th>method</th><th>who may call it</th><th>enforced by</th></tr>
 * <tr><td>{@link #subscribe}, {@link #subscribeBatches}, {@link #subscribeDevice}, {@link #unsubscribe},
 *     {@code subscribe*IfNone}</td><td>any thread, the listener's own too; every change is atomic with every other
 *     (the {@code IfNone} forms check and change in one step)</td><td>a lock of the port's subscriptions, and a
 *     compare-and-set gate per listener that a call must pass</td></tr>
 * <tr><td>{@link #retryPolicy}, {@link #errorHandler}, {@link #latencyRecorder}</td><td>any thread; applies from the
 *     next delivery attempt</td><td>volatile settings</td></tr>
 * <tr><td>{@link #pause}, {@link #resume}</td><td>any thread</td><td>compare-and-set of the state: they never undo
 *     {@code DEAD} or {@code CLOSED}</td></tr>
 * <tr><td>{@link #poll(int)}, {@link #poll(FrameHandler, int)}</td><td>one user thread at a time, and only while the
 *     launcher does not drive the port (its runtime is not started); the listener runs on the calling thread</td>
 *     <td>{@link IllegalStateException} at once, naming the rule and the other poller</td></tr>
 * <tr><td>everything else</td><td>any thread</td><td>reads of volatile state and host mirrors</td></tr>
 * </table>
 *
 * <p>Under the launcher the device loop runs the listener inline, but never waits for it: the retries of a failed
 * frame (backoff included) run on a listener thread of the port's own ({@code seqlink-listener-<channel>-<device>}),
 * and a listener that holds the loop up for more than a couple of milliseconds gets that thread (until its rounds are
 * quick again) while a new loop thread serves the device's other ports. So a listener that fails, retries, waits or
 * blocks holds up its own consumer only.
 */
public interface ConsumerPort {

    String channel();

    int device();

    Transport transport();

    ConsumerState state();

    /** Whether frames wait and no acknowledgement came within the channel's stall timeout. */
    boolean stalled();

    /** Whether the listener is retrying a failed frame (an attempt after the first, or holding at a refused dead letter). */
    boolean retrying();

    /** Why the consumer died, or {@code null} while it is not dead. */
    @Nullable Throwable failure();

    /** The consumer's stream: a device listener's work goes here. */
    DeviceStream stream();

    /** Subscribes a host listener called once per frame, replacing any other (see the class comment). */
    ConsumerPort subscribe(FrameHandler handler);

    /** Subscribes a host listener called once per round with its frames, replacing any other. */
    ConsumerPort subscribeBatches(FrameBatchHandler handler);

    /**
     * Subscribes a device listener that enqueues work on each round's frames, replacing any other.
     *
     * @throws IllegalArgumentException when the channel cannot serve it (a listener that
     *     {@linkplain DeviceFrameHandler#consumesInKernel consumes in its kernel} on a {@code LATEST} channel)
     */
    ConsumerPort subscribeDevice(DeviceFrameHandler handler);

    /**
     * Removes the listener (see the class comment: it is never called again once this returns; what it was not
     * handed stays unacknowledged for the next listener: a lossless channel backs up meanwhile, a latest one laps
     * the port). Returns whether a listener was subscribed.
     */
    boolean unsubscribe();

    /**
     * {@link #subscribe} with {@code policy} and {@code errors}, only if the port has no listener: the check and the
     * change are one step, so a listener another thread subscribes meanwhile is never replaced.
     *
     * @throws IllegalStateException naming the consumer and both listeners when one is subscribed already
     */
    ConsumerPort subscribeIfNone(FrameHandler handler, RetryPolicy policy, FrameErrorHandler errors);

    /** {@link #subscribeIfNone(FrameHandler, RetryPolicy, FrameErrorHandler)} for a batch listener. */
    ConsumerPort subscribeBatchesIfNone(FrameBatchHandler handler, RetryPolicy policy, FrameErrorHandler errors);

    /** {@link #subscribeIfNone(FrameHandler, RetryPolicy, FrameErrorHandler)} for a device listener. */
    ConsumerPort subscribeDeviceIfNone(DeviceFrameHandler handler, RetryPolicy policy, FrameErrorHandler errors);

    boolean subscribed();

    /** How a failing listener is retried (the waits happen on the thread that delivers, never on the device loop). */
    ConsumerPort retryPolicy(RetryPolicy policy);

    /** Where frames go after their last failed retry (default: logged at ERROR and counted). */
    ConsumerPort errorHandler(FrameErrorHandler handler);

    /** Receives the publish-to-ack latency of every delivered frame, in nanoseconds (e.g. a timer). */
    ConsumerPort latencyRecorder(LongConsumer recorder);

    /** Stops polling this consumer (lossless frames wait for it, latest frames lap it); false unless it was active. */
    boolean pause();

    /** Polls a paused consumer again; false unless it was paused. */
    boolean resume();

    /**
     * The highest sequence this consumer acknowledged (its final value once closed). Never ahead of what the port
     * counted handled: a frame shows acknowledged only once it shows delivered, dead-lettered or skipped.
     */
    long acknowledged();

    /**
     * Frames the producer has published (its publish enqueued, whether or not the device has run it yet) that this
     * consumer has not acknowledged. Unlike {@link ConsumerSnapshot#lag()}, which counts from the device's
     * {@code publish_seq}, this is what a drain must wait for.
     */
    long backlog();

    /**
     * One round with the subscribed listener, on the calling thread, taking at most {@code maxFrames}. Returns the
     * frames handled (0 when there was nothing, the round is still in flight, or the consumer is not active).
     *
     * @throws IllegalStateException when the port has no listener, when the launcher drives it, or when another
     *     thread is polling it
     */
    int poll(int maxFrames);

    /** {@link #poll(int)} delivering to {@code handler}, which becomes the port's listener. */
    int poll(FrameHandler handler, int maxFrames);

    ConsumerSnapshot snapshot();
}
