package io.seqlink.spring.observation;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.ObservationView;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;
import io.seqlink.channel.AttachedConsumer;
import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.FrameContext;
import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An observed channel, as its bean: an observed frame's {@code offer} (once it has a slot: a refused offer is not
 * observed) or claim {@code commit} runs inside a
 * {@code seqlink.publish} observation, and the frame carries the observation's trace context in its header (a tracing
 * handler's propagator writes it into the frame's {@link FrameContext} as the observation starts); every other call,
 * and every frame left unobserved, goes straight to the channel. On an observed commit the observation's context
 * replaces one the caller set with {@link #context}.
 *
 * <p>Which frames are observed: those the sampler picks, and every frame sent while the thread handles a frame of an
 * observed channel, inside a {@code seqlink.process} observation (a host listener's call, or a device listener's stage
 * that carries a frame's outcome on: {@link ChannelObservations#startProcess}). The sampler decides where a trace
 * enters seqlink; a trace already carried by a frame is continued on the next channel, not cut there by a second
 * coin (the parent-based sampling of tracers: a child follows its parent's decision). So a channel whose frames only
 * continue traces can be observed with {@code sampling-probability: 0}: it starts none. Telling costs the sampler's
 * draw and, for a frame it leaves out, one look at the thread's current observation and its parents; nothing is
 * allocated. Threading: as {@link PublishChannel}'s, method by method.
 */
final class ObservedPublishChannel implements PublishChannel {

    private final PublishChannel channel;
    private final ObservationRegistry registry;
    private final Sampler sampler;
    private final @Nullable SeqlinkPublishObservationConvention convention;

    ObservedPublishChannel(PublishChannel channel, ObservationRegistry registry, Sampler sampler,
            @Nullable SeqlinkPublishObservationConvention convention) {
        this.channel = channel;
        this.registry = registry;
        this.sampler = sampler;
        this.convention = convention;
    }

    /**
     * A publish observation around {@code send}, in its scope (Micrometer's {@code observeChecked}: started, an error
     * recorded, stopped): as it starts, its tracing handlers (if any) inject the context into a carrier, which the frame
     * then carries; {@code send} commits (and publishes) the claimed frame.
     */
    private <T> T observed(Supplier<T> send) {
        FrameContext carrier = new FrameContext();
        SeqlinkPublishContext context = new SeqlinkPublishContext(channel.name(), carrier);
        return SeqlinkObservation.PUBLISH.observation(convention, DefaultSeqlinkPublishObservationConvention.INSTANCE,
                () -> context, registry).observe(() -> {
                    if (carrier.isPresent()) {
                        channel.context(carrier);
                    }
                    return send.get();
                });
    }

    /** Whether the next frame is observed: the sampler's pick, or a frame sent while one is handled (see the class). */
    private boolean observesNext() {
        return sampler.sample() || handlingAFrame();
    }

    /** Whether the thread is inside a {@code seqlink.process} observation, or in one opened within it. */
    private boolean handlingAFrame() {
        for (ObservationView o = registry.getCurrentObservation(); o != null; o = o.getContextView().getParentObservation()) {
            if (o.getContextView() instanceof SeqlinkProcessContext) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long offer(ByteBuffer src) {
        if (!observesNext()) {
            return channel.offer(src);
        }
        return observedOffer(src);
    }

    @Override
    public long offer(byte[] src, int offset, int length) {
        if (!observesNext()) {
            return channel.offer(src, offset, length);
        }
        if (offset < 0 || length < 0 || offset + length > src.length) {
            return channel.offer(src, offset, length); // its exception, unobserved
        }
        return observedOffer(ByteBuffer.wrap(src, offset, length));
    }

    /**
     * An observed offer: claims first, so only a frame that is sent is observed; a refused claim returns its status as
     * {@code offer} does (a thread whose own committed frames fill the window gets the channel's {@code offer},
     * unobserved, which publishes them). The observation covers the commit and the publish, after the payload's copy.
     */
    private long observedOffer(ByteBuffer src) {
        int length = src.remaining();
        if (length > channel.spec().slotBytes()) {
            return channel.offer(src); // its exception
        }
        long sequence = channel.tryClaim();
        if (sequence == ClaimStatus.BATCH_FULL) {
            return channel.offer(src); // frames this thread committed wait for a publish, which offer makes
        }
        if (sequence <= 0) {
            return sequence; // BACK_PRESSURED, CLAIM_OPEN, CLOSED, FAILED: what offer returns there
        }
        try {
            channel.buffer().put(0, src, src.position(), length);
            return observed(() -> {
                channel.commit(length);
                channel.publish();
                return sequence;
            });
        } catch (RuntimeException | Error ex) {
            channel.abandon(); // nothing of the frame is sent; no-op when the commit ended the claim
            throw ex;
        }
    }

    @Override
    public long offer(ByteBuffer src, FrameContext context) {
        return channel.offer(src, context); // the caller's own context
    }

    @Override
    public void commit(int length) {
        if (!observesNext()) {
            channel.commit(length);
            return;
        }
        observedCommit(length, false);
    }

    @Override
    public void commitDevice(int length) {
        if (!observesNext()) {
            channel.commitDevice(length);
            return;
        }
        observedCommit(length, true);
    }

    private void observedCommit(int length, boolean device) {
        observed(() -> {
            if (device) {
                channel.commitDevice(length);
            } else {
                channel.commit(length);
            }
            return null;
        });
    }

    // ---- the rest: the channel's own ----------------------------------------------------------------

    @Override
    public void context(FrameContext context) {
        channel.context(context);
    }

    @Override
    public String name() {
        return channel.name();
    }

    @Override
    public ChannelSpec spec() {
        return channel.spec();
    }

    @Override
    public ChannelState state() {
        return channel.state();
    }

    @Override
    public @Nullable Throwable failure() {
        return channel.failure();
    }

    @Override
    public long tryClaim() {
        return channel.tryClaim();
    }

    @Override
    public long claim() {
        return channel.claim();
    }

    @Override
    public long claim(long timeout, TimeUnit unit) {
        return channel.claim(timeout, unit);
    }

    @Override
    public ByteBuffer buffer() {
        return channel.buffer();
    }

    @Override
    public long devicePointer() {
        return channel.devicePointer();
    }

    @Override
    public Memory ring() {
        return channel.ring();
    }

    @Override
    public long payloadOffset(long sequence) {
        return channel.payloadOffset(sequence);
    }

    @Override
    public DeviceStream producerStream() {
        return channel.producerStream();
    }

    @Override
    public boolean abandon() {
        return channel.abandon();
    }

    @Override
    public int publish() {
        return channel.publish();
    }

    @Override
    public List<Integer> consumerDevices() {
        return channel.consumerDevices();
    }

    @Override
    public ConsumerPort consumer(int device) {
        return channel.consumer(device);
    }

    @Override
    public ChannelSnapshot snapshot() {
        return channel.snapshot();
    }

    @Override
    public List<AttachedConsumer> attachedConsumers() {
        return channel.attachedConsumers();
    }

    @Override
    public DrainReport drainAndClose(Duration timeout) {
        return channel.drainAndClose(timeout);
    }

    @Override
    public void close() {
        channel.close();
    }

    @Override
    public String toString() {
        return channel.toString();
    }
}
