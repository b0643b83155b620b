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
import io.seqlink.idle.IdleStrategyKind;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;
import org.jspecify.annotations.Nullable;
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
    /** How long closing waits for a producer call or a listener still inside the channel's memory. */
    private static final long RELEASE_GRACE_NANOS = 5_000_000_000L;

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
    private final IdleStrategy claimIdle = IdleStrategyKind.BACKOFF.create();

    // producer state: one writer, on cache lines of its own (see ProducerCursor)
    private final ProducerCursor pos = new ProducerCursor();

    private volatile ChannelState state = ChannelState.OPEN;
    private volatile Throwable failure;
    /** {@code publish_seq} as the mirror last showed it, kept when the mirror is freed; -1 while open. */
    private volatile long finalPublished = -1;
    /** Keep the memory alive while the producer thread, or an outside observer, reads or writes it. */
    private final MemoryGuard producerGuard = new MemoryGuard();
    private final MemoryGuard observerGuard = new MemoryGuard();
    private final AtomicBoolean released = new AtomicBoolean();

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
                    spec.maxPublishBatch(), pushTargets, staging));
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

    /** {@code publish_seq} from the producer's host mirror; once the channel is closed, its final value. */
    long publishedOnDevice() {
        long frozen = finalPublished;
        return frozen >= 0 ? frozen : mirror.getAcquire(ControlBlock.PUBLISH_SEQ); // callers hold a guard
    }

    /**
     * Enters the observer guard for a read from outside the producer and the pollers; false once the
     * channel is closing, after waiting until the final values are kept, which the caller then reads.
     */
    boolean enterObserver() {
        if (observerGuard.enter()) {
            return true;
        }
        while (finalPublished < 0) {
            LockSupport.parkNanos(100_000);
        }
        return false;
    }

    void exitObserver() {
        observerGuard.exit();
    }

    /** Frames the producer has published (enqueued the publish of), readable from any thread. */
    long publishedCount() {
        return counters.get(C_PUBLISHED);
    }

    /** When {@code sequence} was published (host clock), for the publish-to-ack timer; 0 if unknown. */
    long publishNanos(long sequence) {
        return publishNanos[publishIndex(geometry.slotOf(sequence))];
    }

    /**
     * Where a slot's publish time lives: consecutive slots 8 entries apart when the ring allows it, so
     * a consumer reading the time of frame {@code s} does not pull away the cache line the producer is
     * writing the time of {@code s + 1} into (it did, once per frame).
     */
    private int publishIndex(int slot) {
        int slots = geometry.slots();
        return (slots & 7) == 0 ? (slot & 7) * (slots >>> 3) + (slot >>> 3) : slot;
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
    public @Nullable Throwable failure() {
        return failure;
    }

    // ---- producer ---------------------------------------------------------------------------

    @Override
    public long tryClaim() {
        if (!producerGuard.enter()) {
            return state == ChannelState.FAILED ? ClaimStatus.FAILED : ClaimStatus.CLOSED;
        }
        try {
            return claimNext();
        } finally {
            producerGuard.exit();
        }
    }

    private long claimNext() {
        ChannelState s = state;
        if (s != ChannelState.OPEN) {
            return s == ChannelState.FAILED ? ClaimStatus.FAILED : ClaimStatus.CLOSED;
        }
        if (pos.claimed != pos.committed) {
            return ClaimStatus.CLAIM_OPEN;
        }
        if (pos.committed - pos.published >= spec.maxPublishBatch()) {
            return ClaimStatus.BATCH_FULL;
        }
        long next = pos.claimed + 1;
        int slots = geometry.slots();
        if (spec.delivery() == Delivery.LOSSLESS) {
            if (!Sequences.slotFree(next, pos.cachedSlowest, slots)) {
                pos.cachedSlowest = slowestAcknowledged();
                if (!Sequences.slotFree(next, pos.cachedSlowest, slots)) {
                    counters.increment(C_BACKPRESSURED);
                    return ClaimStatus.BACK_PRESSURED;
                }
            }
        } else if (next - slots > publishedOnDevice() && next - slots > 0) {
            // latest: consumers never hold us back, but the staging slot is reused only once our own
            // stream has copied its previous frame out (that frame is published by then).
            counters.increment(C_BACKPRESSURED);
            return ClaimStatus.BACK_PRESSURED;
        }
        pos.claimed = next;
        counters.increment(C_CLAIMED);
        stagingViews[geometry.slotOf(next)].clear();
        return next;
    }

    /** The slowest acknowledgement over consumers that hold the producer back. */
    private long slowestAcknowledged() {
        long slowest = Long.MAX_VALUE;
        for (ConsumerPort p : ports) {
            if (p.gates()) {
                slowest = Math.min(slowest, p.acked());
            }
        }
        return slowest == Long.MAX_VALUE ? pos.claimed : slowest;
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
        enterProducer("buffer()");
        try {
            requireClaim("buffer()");
            return stagingViews[geometry.slotOf(pos.claimed)];
        } finally {
            producerGuard.exit();
        }
    }

    @Override
    public long devicePointer() {
        enterProducer("devicePointer()");
        try {
            requireClaim("devicePointer()");
            return ring.address() + geometry.payloadOffsetOf(pos.claimed);
        } finally {
            producerGuard.exit();
        }
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
        enterProducer("commit");
        try {
            checkCommit(length, "commit");
            long offset = geometry.offsetOf(pos.claimed);
            staging.setPlain(offset + SlotHeader.LENGTH, length);
            producerStream.copy(staging, offset + SlotHeader.LENGTH, ring, offset + SlotHeader.LENGTH,
                    SlotHeader.BYTES - SlotHeader.LENGTH + length);
            pos.committed = pos.claimed;
        } catch (DeviceException ex) {
            throw fail(ex, spec.producer());
        } finally {
            producerGuard.exit();
        }
    }

    @Override
    public void commitDevice(int length) {
        enterProducer("commitDevice");
        try {
            checkCommit(length, "commitDevice");
            // The publish step copies the length into the ring's header (PublishBinding.lengths): a plain
            // store here, no device call per frame. The staging slot is not reused before that publish ran.
            staging.setPlain(geometry.offsetOf(pos.claimed) + SlotHeader.LENGTH, length);
            pos.committed = pos.claimed;
        } catch (DeviceException ex) {
            throw fail(ex, spec.producer());
        } finally {
            producerGuard.exit();
        }
    }

    /** Enters the producer guard, or throws what a closed or failed channel throws. */
    private void enterProducer(String call) {
        if (!producerGuard.enter()) {
            checkUsable(call);
            throw new IllegalStateException(call + ": channel '" + name() + "' is closed");
        }
    }

    private void checkCommit(int length, String call) {
        checkUsable(call);
        if (pos.claimed == pos.committed) {
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
        enterProducer("publish()");
        try {
            return publishCommitted();
        } finally {
            producerGuard.exit();
        }
    }

    private int publishCommitted() {
        checkUsable("publish()");
        int count = (int) (pos.committed - pos.published);
        if (count == 0) {
            throw new IllegalStateException("publish(): nothing to publish on channel '" + name() + "'"
                    + (pos.claimed != pos.committed ? ": frame " + pos.claimed + " is claimed but not committed; call commit(length) first"
                    : "; claim, write and commit a frame first"));
        }
        long now = System.nanoTime();
        for (long s = pos.published + 1; s <= pos.committed; s++) {
            publishNanos[publishIndex(geometry.slotOf(s))] = now;
        }
        try {
            publishKernel.enqueue(count);
        } catch (DeviceException ex) {
            throw fail(ex, spec.producer());
        }
        pos.published = pos.committed;
        counters.add(C_PUBLISHED, count);
        return count;
    }

    @Override
    public long offer(ByteBuffer src) {
        int length = src.remaining();
        checkOfferLength(length, "src");
        if (!producerGuard.enter()) {
            return state == ChannelState.FAILED ? ClaimStatus.FAILED : ClaimStatus.CLOSED;
        }
        try {
            long seq = claimNext();
            if (seq > 0) {
                stagingViews[geometry.slotOf(seq)].put(0, src, src.position(), length);
                commit(length);
                publishCommitted();
            }
            return seq;
        } finally {
            producerGuard.exit();
        }
    }

    @Override
    public long offer(byte[] src, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > src.length) {
            throw new IndexOutOfBoundsException("offer(src, offset, length): range [" + offset + ", " + (offset + length)
                    + ") is outside the array of " + src.length + " bytes");
        }
        checkOfferLength(length, "length");
        if (!producerGuard.enter()) {
            return state == ChannelState.FAILED ? ClaimStatus.FAILED : ClaimStatus.CLOSED;
        }
        try {
            long seq = claimNext();
            if (seq > 0) {
                stagingViews[geometry.slotOf(seq)].put(0, src, offset, length);
                commit(length);
                publishCommitted();
            }
            return seq;
        } finally {
            producerGuard.exit();
        }
    }

    private void checkOfferLength(int length, String argument) {
        if (length > geometry.slotBytes()) {
            throw new IllegalArgumentException("offer: " + argument + " holds " + length + " bytes, more than the slot size "
                    + geometry.slotBytes() + " of channel '" + name() + "'; send smaller frames or raise the channel's slot-size");
        }
    }

    private void requireClaim(String call) {
        checkUsable(call);
        if (pos.claimed == pos.committed) {
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
        boolean inside = enterObserver();
        try {
            return snapshotInside();
        } finally {
            if (inside) {
                exitObserver();
            }
        }
    }

    private ChannelSnapshot snapshotInside() {
        long publishedOnDevice = publishedOnDevice();
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
        long target = pos.published;
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
        long publishedOnDevice = publishedOnDevice();
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

    /**
     * Frees what the channel allocated. Streams close first: closing one waits for its queued work, and
     * that work may still read or write the channel's memory (freeing memory under running kernels is
     * undefined on a GPU; on the emulated backend it failed the device, stickily). The final positions
     * are kept first, so snapshots and acknowledgements still answer once the mirrors are gone.
     */
    private void releaseResources() {
        // Not synchronized on the channel: a poller we wait for below may need its lock to fail it.
        if (!released.compareAndSet(false, true)) {
            return;
        }
        List<AutoCloseable> all = new ArrayList<>(resources);
        resources.clear();
        List<MemoryGuard> guards = new ArrayList<>(List.of(producerGuard, observerGuard));
        if (ports != null) {
            for (ConsumerPort p : ports) {
                if (p != null) {
                    all.addAll(p.resources());
                    p.resources().clear();
                    guards.add(p.guard());
                }
            }
        }
        if (all.isEmpty()) {
            return;
        }
        // Nobody may touch the memory once it is freed: shut every guard, wait for whoever is inside.
        guards.forEach(MemoryGuard::shut);
        boolean quiet = MemoryGuard.awaitQuiet(guards, System.nanoTime() + RELEASE_GRACE_NANOS);
        if (ports != null) {
            for (ConsumerPort p : ports) {
                if (p != null) {
                    p.freeze();
                }
            }
        }
        if (mirror != null && finalPublished < 0) {
            finalPublished = mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
        }
        Collections.reverse(all);
        for (AutoCloseable r : all) {
            if (r instanceof DeviceStream) {
                closeQuietly(r);
            }
        }
        if (!quiet) {
            // A listener or producer call is still running (stuck in user code): freeing now could
            // fault the process. The memory stays until the backend closes.
            log.warn("seqlink channel '{}': a producer call or listener was still running {} ms after the channel closed; "
                    + "its memory stays allocated until the runtime closes", spec.name(), RELEASE_GRACE_NANOS / 1_000_000);
            return;
        }
        for (AutoCloseable r : all) {
            if (!(r instanceof DeviceStream)) {
                closeQuietly(r);
            }
        }
    }

    private void closeQuietly(AutoCloseable r) {
        try {
            r.close();
        } catch (Exception ex) {
            log.debug("seqlink channel '{}': releasing {} failed: {}", spec.name(), r, ex.toString());
        }
    }

    @Override
    public String toString() {
        return "PublishChannel[" + name() + ", " + state + "]";
    }
}
