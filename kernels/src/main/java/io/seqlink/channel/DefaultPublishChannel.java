package io.seqlink.channel;

import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channel: the producer API over {@link ProducerSequencer} (who gets which sequence, in which order
 * they are published) and {@link ProducerTransport} (the memory and the device steps), the consumers
 * in {@link ConsumerPort}s, the life in {@link ChannelLife} (states, memory guards, the final release)
 * and closing in {@link ChannelDrain}.
 *
 * <p>Every producer call enters the producer guard and checks the state inside it, so once a drain has
 * shut the guard and waited for those inside, no frame can be published any more: what was published
 * then is the drain's exact target.
 */
final class DefaultPublishChannel implements PublishChannel {

    private static final Logger log = LoggerFactory.getLogger(DefaultPublishChannel.class);

    private final ChannelSpec spec;
    private final RingGeometry geometry;
    private final PublishTimes publishTimes;
    private final ChannelLife life;
    private final ProducerTransport producer;
    private final ConsumerPort[] ports;
    private final List<Integer> consumerDevices;
    private final ProducerSequencer sequencer;

    DefaultPublishChannel(Backend backend, ChannelSpec spec, Map<Integer, Transport> transports, ChannelEvents events) {
        this.spec = spec;
        this.geometry = spec.geometry();
        this.publishTimes = new PublishTimes(geometry);
        this.life = new ChannelLife(this, events, spec.consumers().size());
        this.consumerDevices = List.copyOf(spec.consumers());
        List<AutoCloseable> resources = life.resources();
        boolean ok = false;
        try {
            this.producer = new ProducerTransport(backend.device(spec.producer()), spec.name(), geometry, resources);
            List<PublishBinding.PushTarget> pushTargets = new ArrayList<>();
            this.ports = new ConsumerPort[consumerDevices.size()];
            for (int i = 0; i < ports.length; i++) {
                int device = consumerDevices.get(i);
                ports[i] = new ConsumerPort(this, backend, device, transports.get(device), pushTargets, resources, life::guardQuiet);
            }
            producer.bindPublish(spec.maxPublishBatch(), pushTargets);
            ok = true;
        } finally {
            if (!ok) {
                life.freeNow();
            }
        }
        this.sequencer = new ProducerSequencer(spec.maxPublishBatch(), new Gating());
        log.info("seqlink channel '{}' open: device {} -> {} ({}), {} slots x {} B, {}, {}", spec.name(), spec.producer(),
                consumerDevices, describeTransports(), geometry.slots(), geometry.slotBytes(),
                spec.delivery().name().toLowerCase(), spec.readMode().name().toLowerCase());
    }

    private String describeTransports() {
        StringBuilder sb = new StringBuilder();
        for (ConsumerPort p : ports) {
            sb.append(sb.length() > 0 ? ", " : "").append(p.device()).append('=').append(p.transport());
        }
        return sb.toString();
    }

    /** What the sequencer asks of the channel: whether a slot is free, and the publish step. */
    private final class Gating implements ProducerSequencer.Gating {
        @Override
        public boolean slotFree(long sequence) {
            int slots = geometry.slots();
            if (spec.delivery() == Delivery.LATEST) {
                // consumers never hold us back, but the staging slot is reused only once our own stream has
                // copied its previous frame out (that frame is published by then)
                return sequence - slots <= 0 || sequence - slots <= producer.publishedOnDevice();
            }
            if (Sequences.slotFree(sequence, sequencer.cachedSlowest(), slots)) {
                return true;
            }
            long slowest = slowestAcknowledged();
            sequencer.cacheSlowest(slowest);
            return Sequences.slotFree(sequence, slowest, slots);
        }

        @Override
        public void publishStep(long first, int count) {
            publishTimes.record(first, count, System.nanoTime());
            producer.publish(count);
        }
    }

    /** The slowest acknowledgement over consumers that hold the producer back (none: no limit). */
    private long slowestAcknowledged() {
        long slowest = Long.MAX_VALUE;
        for (ConsumerPort p : ports) {
            if (p.gates()) {
                slowest = Math.min(slowest, p.acked());
            }
        }
        return slowest;
    }

    // ---- what ports and the drain use -----------------------------------------------------------

    RingGeometry geometry() {
        return geometry;
    }

    DeviceBuffer controlBlock() {
        return producer.control;
    }

    DeviceBuffer ringBuffer() {
        return producer.ring;
    }

    PublishTimes publishTimes() {
        return publishTimes;
    }

    ChannelLife life() {
        return life;
    }

    ProducerSequencer sequencer() {
        return sequencer;
    }

    ProducerTransport producerTransport() {
        return producer;
    }

    List<ConsumerPort> ports() {
        return List.of(ports);
    }

    /** {@code publish_seq} from the producer's host mirror; once the channel is closed, its final value. */
    long publishedOnDevice() {
        long frozen = life.finalPublished();
        return frozen >= 0 ? frozen : producer.publishedOnDevice(); // callers hold a guard
    }

    /** Frames the producer has published (enqueued the publish of), readable from any thread. */
    long publishedCount() {
        return sequencer.published();
    }

    boolean enterObserver() {
        return life.enterObserver();
    }

    void exitObserver() {
        life.exitObserver();
    }

    // ---- PublishChannel: description --------------------------------------------------------

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public ChannelSpec spec() {
        return spec;
    }

    @Override
    public ChannelState state() {
        return life.state();
    }

    @Override
    public Throwable failure() {
        return life.failure();
    }

    // ---- producer ---------------------------------------------------------------------------

    @Override
    public long tryClaim() {
        if (!life.enterProducer()) {
            return life.refusedStatus();
        }
        try {
            return claimCounted();
        } finally {
            life.exitProducer();
        }
    }

    /** A claim inside the producer guard; a refusal for want of a slot is counted once. */
    private long claimCounted() {
        long seq = sequencer.claim(Thread.currentThread());
        if (seq > 0) {
            producer.stagingView(seq).clear();
        } else if (seq == ClaimStatus.BACK_PRESSURED) {
            sequencer.countBackPressured();
        }
        return seq;
    }

    @Override
    public long claim() {
        return claim(spec.backpressureTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * {@inheritDoc} Waits while no slot is free, and while other threads hold the window full
     * ({@code BATCH_FULL} with no frame of this thread in it), helping to publish what they committed.
     * Returns promptly when the thread is interrupted, with the last status and the flag still set.
     */
    @Override
    public long claim(long timeout, TimeUnit unit) {
        long status = tryClaim();
        if (!worthWaiting(status)) {
            return status;
        }
        long start = System.nanoTime();
        long deadline = start + unit.toNanos(timeout);
        boolean counted = status == ClaimStatus.BACK_PRESSURED;
        for (int idle = 0; System.nanoTime() - deadline < 0 && !Thread.currentThread().isInterrupted(); idle++) {
            Backoff.idle(idle);
            if (!life.enterProducer()) {
                status = life.refusedStatus();
                break;
            }
            try {
                if (status == ClaimStatus.BATCH_FULL) {
                    sequencer.publishCommitted();
                }
                status = sequencer.claim(Thread.currentThread());
                if (status > 0) {
                    producer.stagingView(status).clear();
                } else if (status == ClaimStatus.BACK_PRESSURED && !counted) {
                    sequencer.countBackPressured();
                    counted = true;
                }
            } catch (DeviceException ex) {
                throw life.fail(ex, spec.producer());
            } finally {
                life.exitProducer();
            }
            if (!worthWaiting(status)) {
                break;
            }
        }
        sequencer.addWaitNanos(System.nanoTime() - start);
        return status;
    }

    private boolean worthWaiting(long status) {
        return status == ClaimStatus.BACK_PRESSURED
                || (status == ClaimStatus.BATCH_FULL && !sequencer.holdsWindowFrame(Thread.currentThread()));
    }

    @Override
    public ByteBuffer buffer() {
        life.enterProducerOrThrow("buffer()");
        try {
            return producer.stagingView(claimOf("buffer()", "call tryClaim() first"));
        } finally {
            life.exitProducer();
        }
    }

    @Override
    public long devicePointer() {
        life.enterProducerOrThrow("devicePointer()");
        try {
            return producer.devicePointer(claimOf("devicePointer()", "call tryClaim() first"));
        } finally {
            life.exitProducer();
        }
    }

    /** The calling thread's open claim, or an exception naming the rule. */
    private long claimOf(String call, String fix) {
        long seq = sequencer.openClaimOf(Thread.currentThread());
        if (seq == 0) {
            throw new IllegalStateException(call + ": no frame is claimed on channel '" + name() + "' by thread '"
                    + Thread.currentThread().getName() + "'; " + fix + " (a claim belongs to the thread that made it)");
        }
        return seq;
    }

    @Override
    public Memory ring() {
        return producer.ring;
    }

    @Override
    public long payloadOffset(long sequence) {
        if (sequence < 1) {
            throw new IllegalArgumentException("sequence must be 1 or more, was " + sequence);
        }
        return geometry.payloadOffsetOf(sequence);
    }

    @Override
    public DeviceStream producerStream() {
        return producer.stream;
    }

    @Override
    public void commit(int length) {
        commit(length, "commit", "commit(length)", false);
    }

    @Override
    public void commitDevice(int length) {
        commit(length, "commitDevice", "commitDevice(length)", true);
    }

    /** {@code call} and {@code signature} are constants: nothing is built per frame. */
    private void commit(int length, String call, String signature, boolean deviceWritten) {
        life.enterProducerOrThrow(call);
        try {
            long seq = claimOf(signature, "call tryClaim() or claim() first and commit the frame it returns");
            checkLength(length, signature);
            if (deviceWritten) {
                producer.setLength(seq, length);
            } else {
                producer.copyCommitted(seq, length);
            }
            sequencer.markCommitted(seq);
        } catch (DeviceException ex) {
            throw life.fail(ex, spec.producer());
        } finally {
            life.exitProducer();
        }
    }

    private void checkLength(int length, String signature) {
        if (length < 0 || length > geometry.slotBytes()) {
            throw new IllegalArgumentException(signature + ": length " + length + " is outside 0.." + geometry.slotBytes()
                    + ", the slot size of channel '" + name() + "'; write at most " + geometry.slotBytes()
                    + " bytes per frame or raise the channel's slot-size");
        }
    }

    /**
     * {@inheritDoc} Publishes the committed frames of every producing thread, in sequence order, up to
     * the first one still being written; returns how many this call published: 0 when another thread's
     * publish is taking them (it publishes this thread's frames too), or when nothing is committed.
     */
    @Override
    public int publish() {
        if (!life.enterProducer()) {
            if (life.state() == ChannelState.FAILED || sequencer.holdsWindowFrame(Thread.currentThread())) {
                life.throwUnusable("publish()", " (this thread's committed frames were not published)");
            }
            return 0;
        }
        try {
            return sequencer.publishCommitted();
        } catch (DeviceException ex) {
            throw life.fail(ex, spec.producer());
        } finally {
            life.exitProducer();
        }
    }

    @Override
    public long offer(ByteBuffer src) {
        int length = src.remaining();
        checkOfferLength(length, "src");
        return offer(src, null, src.position(), length);
    }

    @Override
    public long offer(byte[] src, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > src.length) {
            throw new IndexOutOfBoundsException("offer(src, offset, length): range [" + offset + ", " + (offset + length)
                    + ") is outside the array of " + src.length + " bytes");
        }
        checkOfferLength(length, "length");
        return offer(null, src, offset, length);
    }

    /** Claims, copies, commits and publishes one frame from a buffer or an array; never waits. */
    private long offer(ByteBuffer buffer, byte[] array, int offset, int length) {
        if (!life.enterProducer()) {
            return life.refusedStatus();
        }
        try {
            Thread me = Thread.currentThread();
            long seq = sequencer.claim(me);
            if (seq == ClaimStatus.BATCH_FULL && !sequencer.holdsWindowFrame(me)) {
                sequencer.publishCommitted(); // other threads' committed frames fill the window: publish them, try once more
                seq = sequencer.claim(me);
            }
            if (seq == ClaimStatus.BACK_PRESSURED) {
                sequencer.countBackPressured();
            }
            if (seq > 0) {
                ByteBuffer slot = producer.stagingView(seq);
                if (buffer != null) {
                    slot.put(0, buffer, offset, length);
                } else {
                    slot.put(0, array, offset, length);
                }
                producer.copyCommitted(seq, length);
                sequencer.markCommitted(seq);
                sequencer.publishCommitted();
            }
            return seq;
        } catch (DeviceException ex) {
            throw life.fail(ex, spec.producer());
        } finally {
            life.exitProducer();
        }
    }

    private void checkOfferLength(int length, String argument) {
        if (length > geometry.slotBytes()) {
            throw new IllegalArgumentException("offer: " + argument + " holds " + length + " bytes, more than the slot size "
                    + geometry.slotBytes() + " of channel '" + name() + "'; send smaller frames or raise the channel's slot-size");
        }
    }

    // ---- consumers --------------------------------------------------------------------------

    @Override
    public List<Integer> consumerDevices() {
        return consumerDevices;
    }

    @Override
    public ConsumerPort consumer(int device) {
        for (ConsumerPort p : ports) {
            if (p.device() == device) {
                return p;
            }
        }
        throw new IllegalArgumentException("device " + device + " is not a consumer of channel '" + name()
                + "'; its consumers are " + consumerDevices);
    }

    @Override
    public ChannelSnapshot snapshot() {
        boolean inside = enterObserver();
        try {
            long publishedOnDevice = publishedOnDevice();
            List<ConsumerSnapshot> consumers = new ArrayList<>(ports.length);
            for (ConsumerPort p : ports) {
                consumers.add(p.snapshot(publishedOnDevice));
            }
            Throwable f = failure();
            return new ChannelSnapshot(name(), state(), f == null ? null : f.getMessage(), spec.producer(), geometry.slots(),
                    geometry.slotBytes(), spec.delivery(), spec.readMode(), sequencer.claimed(), sequencer.published(),
                    publishedOnDevice, sequencer.backPressured(), sequencer.waitNanos(), consumers);
        } finally {
            if (inside) {
                exitObserver();
            }
        }
    }

    // ---- failure and life -------------------------------------------------------------------

    /** A consumer's device failed: apply the channel's policy. */
    void consumerFailed(ConsumerPort port, DeviceException cause) {
        switch (spec.consumerFailurePolicy()) {
            case FAIL_CHANNEL -> life.fail(cause, port.device());
            case DROP_CONSUMER -> log.error("seqlink channel '{}': consumer on device {} is dead and dropped: {}", name(),
                    port.device(), cause.getMessage());
            case KEEP_WAITING -> log.error("seqlink channel '{}': consumer on device {} is dead; the producer keeps waiting "
                    + "for it (consumer-failure-policy=keep-waiting): {}", name(), port.device(), cause.getMessage());
        }
        if (cause.sticky()) {
            life.events().deviceFailed(cause.device(), cause);
        }
    }

    @Override
    public DrainReport drainAndClose(Duration timeout) {
        return ChannelDrain.drain(this, timeout);
    }

    @Override
    public void close() {
        if (state() != ChannelState.CLOSED) {
            drainAndClose(spec.stallTimeout());
        }
    }

    @Override
    public String toString() {
        return "PublishChannel[" + name() + ", " + state() + "]";
    }
}
