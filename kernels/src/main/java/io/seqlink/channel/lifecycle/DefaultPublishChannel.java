package io.seqlink.channel.lifecycle;

import io.seqlink.LogKeys;
import io.seqlink.backend.Backend;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.channel.AttachedConsumer;
import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.FrameContext;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.consumer.DefaultConsumerPort;
import io.seqlink.channel.consumer.ProducerView;
import io.seqlink.channel.consumer.PublishBell;
import io.seqlink.channel.producer.Producer;
import io.seqlink.channel.producer.ProducerTransport;
import io.seqlink.channel.producer.PublishTimeRecord;
import io.seqlink.channel.producer.RingPlace;
import io.seqlink.channel.shared.ChannelExport;
import io.seqlink.layout.RingGeometry;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channel, put together: the producer calls in {@link Producer} (its sequencer: who gets which sequence, in
 * which order they are published; and {@link ProducerTransport}: the memory and the device steps), the consumers in
 * {@link DefaultConsumerPort}s, the life in {@link ChannelLife} (states, memory guards, the final release) and closing
 * in {@link ChannelDrain}. It only wires them: each call goes to the part that owns it.
 *
 * <p>Every producer call enters the producer guard and checks the state inside it, so once a drain has
 * shut the guard and waited for those inside, no frame can be published any more: what was published
 * then is the drain's exact target.
 */
final class DefaultPublishChannel implements PublishChannel {

    private static final Logger log = LoggerFactory.getLogger(DefaultPublishChannel.class);

    private final ChannelSpec spec;
    private final RingGeometry geometry;
    private final ChannelLife life;
    private final ProducerTransport producer;
    private final DefaultConsumerPort[] ports;
    private final List<Integer> consumerDevices;
    private final Producer calls;
    /** The share with consumer processes, or {@code null} when the channel stays in this process. */
    private final @Nullable ChannelExport export;
    /** Rung by every publish step: wakes the consumers' dozing device loops. */
    private final PublishBell bell;

    DefaultPublishChannel(Backend backend, ChannelSpec spec, Map<Integer, Transport> transports, ChannelEvents events) {
        this.spec = spec;
        this.geometry = spec.geometry();
        this.life = new ChannelLife(this, events, spec.consumers().size());
        this.consumerDevices = List.copyOf(spec.consumers());
        this.bell = new PublishBell(consumerDevices.size());
        List<AutoCloseable> resources = life.resources();
        boolean ok = false;
        try {
            Device producerDevice = backend.device(spec.producer());
            if (spec.share() != null) { // first: its region may be where the ring lives
                ChannelExport e = ChannelExport.open(spec, producerDevice, this::publishedForExport);
                resources.add(e); // freed after the streams, so the region outlives every step that writes it
                this.export = e;
            } else {
                this.export = null;
            }
            RingPlace place = ringPlace(spec, transports, export);
            this.producer = new ProducerTransport(producerDevice, spec.name(), geometry, spec.armedRounds(), place, resources);
            List<PublishBinding.PushTarget> pushTargets = new ArrayList<>();
            this.ports = new DefaultConsumerPort[consumerDevices.size()];
            ProducerView view = new PortView();
            for (int i = 0; i < ports.length; i++) {
                int device = consumerDevices.get(i);
                Transport transport = Objects.requireNonNull(transports.get(device), "Channels.open checked every consumer's");
                ports[i] = new DefaultConsumerPort(backend, spec, device, transport, producer.publication(), producer.ring(),
                        producer.doorbells(), view, pushTargets, resources, life::guardQuiet, cause -> consumerFailed(device, cause),
                        bell, i);
            }
            if (export != null && !place.inHost()) { // a ring in device memory: the region gets a copy of every frame
                pushTargets.add(export.pushTarget());
            }
            producer.bindPublish(spec.maxPublishBatch(), pushTargets);
            ok = true;
        } finally {
            if (!ok) {
                life.freeNow();
            }
        }
        this.calls = new Producer(spec, producer, life, this::slowestAcknowledged, bell::ring,
                export != null ? new ExportedPublishTimes(export) : PublishTimeRecord.inHeap(geometry));
        log.info("seqlink channel '{}' open: device {} -> {} ({}), {} slots x {} B in {}, {}, {}", spec.name(), spec.producer(),
                consumerDevices, describeTransports(), geometry.slots(), geometry.slotBytes(), producer.place().describe(),
                spec.delivery().name().toLowerCase(), spec.readMode().name().toLowerCase());
    }

    /** The place {@link RingPlace#decide} picks, with the shared region's memory when it picks that. */
    private static RingPlace ringPlace(ChannelSpec spec, Map<Integer, Transport> transports, @Nullable ChannelExport export) {
        return switch (RingPlace.decide(spec, transports)) {
            case DEVICE -> RingPlace.DEVICE;
            case PINNED_HOST -> RingPlace.HOST;
            case SHARED_REGION -> {
                ChannelExport e = Objects.requireNonNull(export, "a shared channel's export is made before its ring");
                yield RingPlace.sharedRegion(e.control(), e.ring());
            }
        };
    }

    private String describeTransports() {
        StringBuilder sb = new StringBuilder();
        for (DefaultConsumerPort p : ports) {
            sb.append(sb.length() > 0 ? ", " : "").append(p.device()).append('=').append(p.transport());
        }
        ChannelExport e = export;
        if (e != null) {
            sb.append(sb.length() > 0 ? ", " : "").append("shared with other processes at ").append(e.socket());
        }
        return sb.toString();
    }

    // ---- what ports and the drain use -----------------------------------------------------------

    /** The slowest acknowledgement over consumers that hold the producer back (none: no limit), for its gating. */
    private long slowestAcknowledged() {
        ChannelExport e = export;
        long slowest = e == null ? Long.MAX_VALUE : e.slowestAcknowledged();
        for (DefaultConsumerPort p : ports) {
            if (p.gates()) {
                slowest = Math.min(slowest, p.mirrorAcknowledged());
            }
        }
        return slowest;
    }

    /** Whether every consumer process attached now acknowledged {@code target} (true when none is, or the channel is not shared). */
    boolean attachedAcknowledged(long target) {
        ChannelExport e = export;
        return e == null || e.slowestAcknowledged() >= target;
    }

    ChannelLife life() {
        return life;
    }

    Producer producerCalls() {
        return calls;
    }

    ProducerTransport producerTransport() {
        return producer;
    }

    List<DefaultConsumerPort> ports() {
        return List.of(ports);
    }

    /** The ports themselves, for the hot paths: no list made per call. Not to be changed. */
    DefaultConsumerPort[] portArray() {
        return ports;
    }

    /** {@code publish_seq} from the producer's host mirror; once the channel is closed, its final value. */
    long publishedOnDevice() {
        long frozen = life.finalPublished();
        return frozen >= 0 ? frozen : producer.publishedOnDevice(); // callers hold a guard
    }

    /** {@link #publishedCount()} for the export, whose attach thread may run before the constructor made {@link #calls}: 0 then. */
    @SuppressWarnings("ConstantConditions") // read before the constructor assigned it, on purpose
    private long publishedForExport() {
        Producer p = calls;
        return p == null ? 0 : p.published();
    }

    /** Frames the producer has published (enqueued the publish of), readable from any thread. */
    long publishedCount() {
        return calls.published();
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
    public @Nullable Throwable failure() {
        return life.failure();
    }

    // ---- producer: any thread, see Producer ----------------------------------------------

    @Override
    public long tryClaim() {
        return calls.tryClaim();
    }

    @Override
    public long claim() {
        return calls.claim();
    }

    /**
     * {@inheritDoc} Waits while no slot is free, and while other threads' frames fill the window, helping
     * to publish what they committed. Returns promptly when the thread is interrupted, with the last status
     * and the flag still set.
     */
    @Override
    public long claim(long timeout, TimeUnit unit) {
        return calls.claim(timeout, unit);
    }

    @Override
    public ByteBuffer buffer() {
        return calls.buffer();
    }

    @Override
    public long devicePointer() {
        return calls.devicePointer();
    }

    @Override
    public Memory ring() {
        return producer.ring();
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
        return producer.stream();
    }

    @Override
    public void commit(int length) {
        calls.commit(length);
    }

    @Override
    public void context(FrameContext context) {
        calls.context(context);
    }

    @Override
    public void commitDevice(int length) {
        calls.commitDevice(length);
    }

    /**
     * {@inheritDoc} Publishes the committed frames of every producing thread, in sequence order, up to
     * the first one still being written; returns how many this call published: 0 when another thread's
     * publish is taking them (it publishes this thread's frames too), or when nothing is committed.
     */
    @Override
    public int publish() {
        return calls.publish();
    }

    @Override
    public boolean abandon() {
        return calls.abandon();
    }

    @Override
    public long offer(ByteBuffer src) {
        return calls.offer(src);
    }

    @Override
    public long offer(ByteBuffer src, FrameContext context) {
        return calls.offer(src, context);
    }

    @Override
    public long offer(byte[] src, int offset, int length) {
        return calls.offer(src, offset, length);
    }

    // ---- consumers --------------------------------------------------------------------------

    @Override
    public List<Integer> consumerDevices() {
        return consumerDevices;
    }

    @Override
    public ConsumerPort consumer(int device) {
        for (DefaultConsumerPort p : ports) {
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
            for (DefaultConsumerPort p : ports) {
                consumers.add(p.snapshot(publishedOnDevice));
            }
            Throwable f = failure();
            return new ChannelSnapshot(name(), state(), f == null ? null : f.getMessage(), spec.producer(), geometry.slots(),
                    geometry.slotBytes(), spec.delivery(), spec.readMode(), calls.claimed(), calls.published(),
                    publishedOnDevice, calls.backPressured(), calls.backPressureWaitNanos(), calls.claimsGivenBack(), calls.openClaim(),
                    consumers, attachedConsumers());
        } finally {
            if (inside) {
                exitObserver();
            }
        }
    }

    @Override
    public List<AttachedConsumer> attachedConsumers() {
        ChannelExport e = export;
        return e == null || state() == ChannelState.CLOSED ? List.of() : e.attachedConsumers();
    }

    // ---- failure and life -------------------------------------------------------------------

    /** A consumer's device failed: apply the channel's policy. */
    private void consumerFailed(int device, DeviceException cause) {
        switch (spec.consumerFailurePolicy()) {
            case FAIL_CHANNEL -> life.fail(cause, device);
            case DROP_CONSUMER -> log.atError().addKeyValue(LogKeys.CHANNEL, name()).addKeyValue(LogKeys.DEVICE, device)
                    .log("seqlink channel '{}': consumer on device {} is dead and dropped: {}", name(), device, cause.getMessage());
            case KEEP_WAITING -> log.atError().addKeyValue(LogKeys.CHANNEL, name()).addKeyValue(LogKeys.DEVICE, device)
                    .log("seqlink channel '{}': consumer on device {} is dead; the producer keeps waiting for it "
                            + "(consumer-failure-policy=keep-waiting): {}", name(), device, cause.getMessage());
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

    /** What the ports read of the producer. */
    private final class PortView implements ProducerView {
        @Override
        public long publishedOnDevice() {
            return DefaultPublishChannel.this.publishedOnDevice();
        }

        @Override
        public long publishedCount() {
            return DefaultPublishChannel.this.publishedCount();
        }

        @Override
        public long publishTime(long sequence) {
            return calls.publishTime(sequence);
        }

        @Override
        public long paddingIn(long from, long to) {
            return calls.paddingIn(from, to);
        }

        @Override
        public boolean context(long sequence, FrameContext into) {
            return calls.context(sequence, into);
        }
    }
}
