package io.seqlink.channel;

import io.seqlink.backend.Backend;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.idle.BackoffIdleStrategy;
import io.seqlink.idle.IdleStrategy;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import io.seqlink.layout.SlotHeader;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channel: the producer side lives here, each consumer in a {@link ConsumerPort}.
 *
 * <pre>
 *   producer device                                   host (pinned, mapped)
 *   +-----------------+  +------------------------+   +------------------------+  +-------------+
 *   | control block   |  | ring: slots x stride   |   | staging: slots x stride|  | mirror      |
 *   | (128 B line)    |  | [hdr|payload] ...      |   | (host writes frames)   |  | publish_seq |
 *   +-----------------+  +------------------------+   +------------------------+  +-------------+
 * </pre>
 *
 * <p>Producer state ({@code claimed}, {@code committed}, {@code published}) has one writer, the
 * producing thread. The gating sequence (slowest consumer ack) is cached, like the Disruptor's
 * single-producer sequencer, and only re-read from the consumers' mirrors when the cache says the
 * ring is full.
 */
final class DefaultPublishChannel implements PublishChannel {

    private static final Logger log = LoggerFactory.getLogger(DefaultPublishChannel.class);

    static final int C_CLAIMED = 0;
    static final int C_PUBLISHED = 1;
    static final int C_BACKPRESSURED = 2;
    private static final int COUNTERS = 3;

    private final ChannelSpec spec;
    private final RingGeometry geometry;
    private final Backend backend;
    private final ChannelEvents events;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final DeviceStream producerStream;
    private final DeviceBuffer control;
    private final DeviceBuffer ring;
    private final MappedBuffer staging;
    private final MappedBuffer mirror;
    private final PublishKernel publishKernel;
    private final ByteBuffer[] stagingViews;
    private final ConsumerPort[] ports;
    private final List<Integer> consumerDevices;
    private final long[] publishNanos;
    private final CounterSet counters = new CounterSet(COUNTERS);
    private final IdleStrategy claimIdle = BackoffIdleStrategy.defaults();

    // producer state: one writer
    private long claimed;
    private long committed;
    private long published;
    private long cachedSlowest;

    private volatile ChannelState state = ChannelState.OPEN;
    private volatile Throwable failure;

    DefaultPublishChannel(Backend backend, ChannelSpec spec, Map<Integer, Transport> transports, ChannelEvents events) {
        this.spec = spec;
        this.geometry = spec.geometry();
        this.backend = backend;
        this.events = events;
        boolean ok = false;
        try {
            Device producer = backend.device(spec.producer());
            this.producerStream = track(producer.newStream(spec.name() + "-producer"));
            this.control = track(producer.allocate(ControlBlock.BYTES));
            this.ring = track(producer.allocate(geometry.ringBytes()));
            this.staging = track(producer.allocateMapped(geometry.ringBytes()));
            this.mirror = track(producer.allocateMapped(ControlBlock.BYTES));
            this.stagingViews = new ByteBuffer[geometry.slots()];
            for (int s = 0; s < geometry.slots(); s++) {
                int offset = (int) (s * geometry.stride() + SlotHeader.BYTES);
                stagingViews[s] = staging.byteBuffer().slice(offset, (int) geometry.slotBytes()).order(ByteOrder.LITTLE_ENDIAN);
            }
            this.publishNanos = new long[geometry.slots()];

            List<PublishBinding.PushTarget> pushTargets = new ArrayList<>();
            this.ports = new ConsumerPort[spec.consumers().size()];
            for (int i = 0; i < ports.length; i++) {
                int device = spec.consumers().get(i);
                Transport transport = transports.get(device);
                ports[i] = new ConsumerPort(this, backend, device, transport, pushTargets);
            }
            this.consumerDevices = List.copyOf(spec.consumers());
            this.publishKernel = producerStream.bindPublish(new PublishBinding(control, ring, geometry, mirror,
                    spec.maxPublishBatch(), pushTargets));
            producerStream.synchronize();
            ok = true;
        } finally {
            if (!ok) {
                releaseResources();
            }
        }
        log.info("seqlink channel '{}' open: device {} -> {} ({}), {} slots x {} B, {}, {}", spec.name(), spec.producer(),
                consumerDevices, describeTransports(), geometry.slots(), geometry.slotBytes(),
                spec.delivery().name().toLowerCase(), spec.readMode().name().toLowerCase());
    }

    <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    private String describeTransports() {
        StringBuilder sb = new StringBuilder();
        for (ConsumerPort p : ports) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(p.device()).append('=').append(p.transport());
        }
        return sb.toString();
    }

    // ---- accessors used by ports --------------------------------------------------------------

    RingGeometry geometry() {
        return geometry;
    }

    DeviceBuffer controlBlock() {
        return control;
    }

    DeviceBuffer ringBuffer() {
        return ring;
    }

    long publishedOnDevice() {
        return mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
    }

    /** When {@code sequence} was published (host clock), for the publish-to-ack timer; 0 if unknown. */
    long publishNanos(long sequence) {
        return publishNanos[geometry.slotOf(sequence)];
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
        return state;
    }

    @Override
    public Throwable failure() {
        return failure;
    }

    // ---- producer ---------------------------------------------------------------------------

    @Override
    public long tryClaim() {
        ChannelState s = state;
        if (s != ChannelState.OPEN) {
            return s == ChannelState.FAILED ? ClaimStatus.FAILED : ClaimStatus.CLOSED;
        }
        if (claimed != committed) {
            return ClaimStatus.CLAIM_OPEN;
        }
        if (committed - published >= spec.maxPublishBatch()) {
            return ClaimStatus.BATCH_FULL;
        }
        long next = claimed + 1;
        int slots = geometry.slots();
        if (spec.delivery() == Delivery.LOSSLESS) {
            if (!Sequences.slotFree(next, cachedSlowest, slots)) {
                cachedSlowest = slowestAcknowledged();
                if (!Sequences.slotFree(next, cachedSlowest, slots)) {
                    counters.increment(C_BACKPRESSURED);
                    return ClaimStatus.BACK_PRESSURED;
                }
            }
        } else if (next - slots > mirror.getAcquire(ControlBlock.PUBLISH_SEQ) && next - slots > 0) {
            // latest: consumers never hold us back, but the staging slot is reused only once our own
            // stream has copied its previous frame out (that frame is published by then).
            counters.increment(C_BACKPRESSURED);
            return ClaimStatus.BACK_PRESSURED;
        }
        claimed = next;
        counters.increment(C_CLAIMED);
        stagingViews[geometry.slotOf(next)].clear();
        return next;
    }

    /** The slowest acknowledgement over consumers that hold the producer back. */
    private long slowestAcknowledged() {
        long slowest = Long.MAX_VALUE;
        for (ConsumerPort p : ports) {
            if (p.gates()) {
                slowest = Math.min(slowest, p.acknowledged());
            }
        }
        return slowest == Long.MAX_VALUE ? claimed : slowest;
    }

    @Override
    public long claim() {
        return claim(spec.backpressureTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public long claim(long timeout, TimeUnit unit) {
        long status = tryClaim();
        if (status != ClaimStatus.BACK_PRESSURED) {
            return status;
        }
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        claimIdle.reset();
        while (System.nanoTime() - deadline < 0) {
            claimIdle.idle();
            status = tryClaim();
            if (status != ClaimStatus.BACK_PRESSURED) {
                return status;
            }
        }
        return status;
    }

    @Override
    public ByteBuffer buffer() {
        requireClaim("buffer()");
        return stagingViews[geometry.slotOf(claimed)];
    }

    @Override
    public long devicePointer() {
        requireClaim("devicePointer()");
        return ring.address() + geometry.payloadOffsetOf(claimed);
    }

    @Override
    public Memory ring() {
        return ring;
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
        return producerStream;
    }

    @Override
    public void commit(int length) {
        checkCommit(length, "commit");
        long offset = geometry.offsetOf(claimed);
        staging.setPlain(offset + SlotHeader.LENGTH, length);
        try {
            producerStream.copy(staging, offset + SlotHeader.LENGTH, ring, offset + SlotHeader.LENGTH,
                    SlotHeader.BYTES - SlotHeader.LENGTH + length);
        } catch (DeviceException ex) {
            throw fail(ex, spec.producer());
        }
        committed = claimed;
    }

    @Override
    public void commitDevice(int length) {
        checkCommit(length, "commitDevice");
        try {
            producerStream.writeValue(ring, geometry.offsetOf(claimed) + SlotHeader.LENGTH, length);
        } catch (DeviceException ex) {
            throw fail(ex, spec.producer());
        }
        committed = claimed;
    }

    private void checkCommit(int length, String call) {
        checkUsable(call);
        if (claimed == committed) {
            throw new IllegalStateException(call + "(length): no frame is claimed on channel '" + name()
                    + "'; call tryClaim() or claim() first and commit the frame it returns");
        }
        if (length < 0 || length > geometry.slotBytes()) {
            throw new IllegalArgumentException(call + "(length): length " + length + " is outside 0.." + geometry.slotBytes()
                    + ", the slot size of channel '" + name() + "'; write at most " + geometry.slotBytes()
                    + " bytes per frame or raise the channel's slot-size");
        }
    }

    @Override
    public int publish() {
        checkUsable("publish()");
        int count = (int) (committed - published);
        if (count == 0) {
            throw new IllegalStateException("publish(): nothing to publish on channel '" + name() + "'"
                    + (claimed != committed ? ": frame " + claimed + " is claimed but not committed; call commit(length) first"
                    : "; claim, write and commit a frame first"));
        }
        long now = System.nanoTime();
        for (long s = published + 1; s <= committed; s++) {
            publishNanos[geometry.slotOf(s)] = now;
        }
        try {
            publishKernel.enqueue(count);
        } catch (DeviceException ex) {
            throw fail(ex, spec.producer());
        }
        published = committed;
        counters.add(C_PUBLISHED, count);
        return count;
    }

    @Override
    public long offer(ByteBuffer src) {
        int length = src.remaining();
        checkOfferLength(length, "src");
        long seq = tryClaim();
        if (seq > 0) {
            stagingViews[geometry.slotOf(seq)].put(0, src, src.position(), length);
            commit(length);
            publish();
        }
        return seq;
    }

    @Override
    public long offer(byte[] src, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > src.length) {
            throw new IndexOutOfBoundsException("offer(src, offset, length): range [" + offset + ", " + (offset + length)
                    + ") is outside the array of " + src.length + " bytes");
        }
        checkOfferLength(length, "length");
        long seq = tryClaim();
        if (seq > 0) {
            stagingViews[geometry.slotOf(seq)].put(0, src, offset, length);
            commit(length);
            publish();
        }
        return seq;
    }

    private void checkOfferLength(int length, String argument) {
        if (length > geometry.slotBytes()) {
            throw new IllegalArgumentException("offer: " + argument + " holds " + length + " bytes, more than the slot size "
                    + geometry.slotBytes() + " of channel '" + name() + "'; send smaller frames or raise the channel's slot-size");
        }
    }

    private void requireClaim(String call) {
        checkUsable(call);
        if (claimed == committed) {
            throw new IllegalStateException(call + ": no frame is claimed on channel '" + name() + "'; call tryClaim() first");
        }
    }

    private void checkUsable(String call) {
        ChannelState s = state;
        if (s == ChannelState.FAILED) {
            throw new ChannelFailedException(name(), failure);
        }
        if (s != ChannelState.OPEN) {
            throw new IllegalStateException(call + ": channel '" + name() + "' is " + s.name().toLowerCase()
                    + "; open a new channel to publish again");
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

    List<ConsumerPort> ports() {
        return List.of(ports);
    }

    @Override
    public ChannelSnapshot snapshot() {
        long publishedOnDevice = mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
        List<ConsumerSnapshot> consumers = new ArrayList<>(ports.length);
        for (ConsumerPort p : ports) {
            consumers.add(p.snapshot(publishedOnDevice));
        }
        Throwable f = failure;
        return new ChannelSnapshot(name(), state, f == null ? null : f.getMessage(), spec.producer(), geometry.slots(),
                geometry.slotBytes(), spec.delivery(), spec.readMode(), counters.get(C_CLAIMED), counters.get(C_PUBLISHED),
                publishedOnDevice, counters.get(C_BACKPRESSURED), consumers);
    }

    // ---- failure and life -------------------------------------------------------------------

    /**
     * Fails the channel closed with {@code cause}: claims return {@code FAILED}, consumers stop. Returns
     * the exception the caller should throw.
     */
    ChannelFailedException fail(Throwable cause, int device) {
        synchronized (this) {
            if (state != ChannelState.FAILED && state != ChannelState.CLOSED) {
                failure = cause;
                state = ChannelState.FAILED;
                for (ConsumerPort p : ports) {
                    p.stop();
                }
                log.error("seqlink channel '{}' failed and is closed: {}", name(), cause.getMessage());
                events.channelFailed(this, cause, device);
            }
        }
        return new ChannelFailedException(name(), failure == null ? cause : failure);
    }

    /** A consumer's device failed: apply the channel's policy. */
    void consumerFailed(ConsumerPort port, DeviceException cause) {
        switch (spec.consumerFailurePolicy()) {
            case FAIL_CHANNEL -> fail(cause, port.device());
            case DROP_CONSUMER -> log.error("seqlink channel '{}': consumer on device {} is dead and dropped: {}", name(),
                    port.device(), cause.getMessage());
            case KEEP_WAITING -> log.error("seqlink channel '{}': consumer on device {} is dead; the producer keeps waiting "
                    + "for it (consumer-failure-policy=keep-waiting): {}", name(), port.device(), cause.getMessage());
        }
        if (cause.sticky()) {
            events.deviceFailed(cause.device(), cause);
        }
    }

    @Override
    public DrainReport drainAndClose(Duration timeout) {
        synchronized (this) {
            if (state == ChannelState.OPEN) {
                state = ChannelState.DRAINING;
            }
        }
        long target = published;
        boolean timedOut = false;
        if (state == ChannelState.DRAINING && target > 0) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!allAcknowledged(target)) {
                if (System.nanoTime() - deadline >= 0) {
                    timedOut = true;
                    break;
                }
                LockSupport.parkNanos(200_000);
            }
        }
        long publishedOnDevice = mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
        Map<Integer, Long> undelivered = new LinkedHashMap<>();
        for (ConsumerPort p : ports) {
            long left = Math.max(0, Math.max(target, publishedOnDevice) - p.acknowledged());
            if (left > 0) {
                undelivered.put(p.device(), left);
            }
        }
        DrainReport report = new DrainReport(name(), Math.max(target, publishedOnDevice), undelivered, timedOut);
        if (report.totalUndelivered() > 0) {
            log.warn("seqlink channel '{}' closed with undelivered frames: {} (of {} published){}", name(), undelivered,
                    report.published(), timedOut ? " after waiting " + timeout : "");
        }
        synchronized (this) {
            for (ConsumerPort p : ports) {
                p.stop();
            }
            if (state != ChannelState.FAILED) {
                state = ChannelState.CLOSED;
            }
        }
        releaseResources();
        events.channelClosed(this);
        return report;
    }

    private boolean allAcknowledged(long target) {
        for (ConsumerPort p : ports) {
            if (p.gates() && p.state() != ConsumerState.DEAD && p.acknowledged() < target) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        if (state == ChannelState.CLOSED) {
            return;
        }
        drainAndClose(spec.stallTimeout());
    }

    private synchronized void releaseResources() {
        List<AutoCloseable> all = new ArrayList<>(resources);
        resources.clear();
        if (ports != null) {
            for (ConsumerPort p : ports) {
                if (p != null) {
                    all.addAll(p.resources());
                }
            }
        }
        Collections.reverse(all);
        for (AutoCloseable r : all) {
            try {
                r.close();
            } catch (Exception ex) {
                log.debug("seqlink channel '{}': releasing {} failed: {}", spec.name(), r, ex.toString());
            }
        }
    }

    @Override
    public String toString() {
        return "PublishChannel[" + name() + ", " + state + "]";
    }
}
