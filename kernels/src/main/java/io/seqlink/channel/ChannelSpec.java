package io.seqlink.channel;

import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import io.seqlink.topology.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a channel is: its producer device, its consumer devices, the ring, and how it delivers.
 * Construction never throws; {@link #validate(String)} lists everything wrong at once and
 * {@link #checked()} throws {@link InvalidChannelSpecException} with that list.
 *
 * @param name                  channel name: letters, digits, {@code -} and {@code _}; at most 64
 * @param producer              device that writes frames
 * @param consumers             devices that read every frame; at least one unless shared, no duplicates (a {@code null} list is
 *                              empty, a {@code null} device fails {@link #validate})
 * @param slots                 ring slots, {@value RingGeometry#MIN_SLOTS} to 2^20
 * @param slotBytes             largest frame payload, 1 byte to {@value RingGeometry#MAX_SLOT_BYTES} (1 GiB - 448 B);
 *                              slots x (slotBytes + header, rounded up to 128 B) at most {@value RingGeometry#MAX_RING_BYTES}
 * @param delivery              lossless (backpressure) or latest (the producer never waits)
 * @param readMode              copy into a consumer-local ring, or read in place
 * @param transport             {@link Transport#AUTO} to follow the verifier, or a forced transport
 * @param maxPublishBatch       most frames claimed between two publishes, 1 to {@code slots - 1}
 * @param backpressureTimeout   how long {@code claim()} waits for a free slot; zero: not at all
 * @param stallTimeout          a consumer with frames waiting and no ack for this long is stalled
 * @param consumerFailurePolicy what happens when a consumer's device fails
 * @param armedRounds           whether an idle consumer (a host listener, or a device listener that {@linkplain
 *                              DeviceFrameHandler#acceptsArmedRounds accepts armed rounds}) keeps its next round
 *                              armed on the consumer stream behind a stream wait on the frame's doorbell, so the
 *                              round runs when the frame is published, without a host hop (default true; ignored
 *                              where the consumer's stream cannot wait: the round then starts when the poller sees
 *                              the frame)
 * @param hostListeners         the consumer devices whose listener is a host listener ({@link FrameHandler} or
 *                              {@link FrameBatchHandler}), known as the channel opens: on a {@link Delivery#LOSSLESS}
 *                              channel the producer's publish step also pushes every frame into pinned host memory for
 *                              each of them, and their host listener reads it there in place, with no consume step and
 *                              no copy of its own. A hint, never a limit: any consumer may subscribe any listener; a
 *                              host listener on a consumer not listed here gets its frames staged by its consumer's
 *                              stream, and a device listener on one listed here reads as it always does (the push goes
 *                              on). A channel with host-pushed consumers is a push channel for users' kernels: they let
 *                              the channel's publish step publish rather than publishing at their end. Empty by default
 *                              (the Spring starter sets it from the application's {@code @ChannelListener} methods that take a {@code Frame} or {@code List<Frame>})
 * @param share                 how consumer processes of this host attach to the channel ({@code docs/cross-process.md});
 *                              {@code null}: the channel stays inside this process. Their frames are pushed into a
 *                              shared-memory region by the publish step; they gate the producer while attached
 */
public record ChannelSpec(String name, int producer, List<Integer> consumers, int slots, long slotBytes,
        Delivery delivery, ReadMode readMode, Transport transport, int maxPublishBatch, Duration backpressureTimeout,
        Duration stallTimeout, ConsumerFailurePolicy consumerFailurePolicy, boolean armedRounds, List<Integer> hostListeners,
        @Nullable ChannelShare share) {

    public static final int DEFAULT_SLOTS = 64;
    public static final long DEFAULT_SLOT_BYTES = 64 * 1024;
    public static final Duration DEFAULT_BACKPRESSURE_TIMEOUT = Duration.ofSeconds(1);
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(5);
    public static final int MAX_NAME_LENGTH = 64;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1," + MAX_NAME_LENGTH + "}");

    public ChannelSpec {
        // Not List.copyOf: it throws on a null device, which validate() reports instead.
        consumers = consumers == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(consumers));
        hostListeners = hostListeners == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(hostListeners));
    }

    /** This specification with {@code devices} as its {@link #hostListeners} (the rest unchanged). */
    public ChannelSpec withHostListeners(List<Integer> devices) {
        return new ChannelSpec(name, producer, consumers, slots, slotBytes, delivery, readMode, transport, maxPublishBatch,
                backpressureTimeout, stallTimeout, consumerFailurePolicy, armedRounds, devices, share);
    }

    /** Whether the producer pushes {@code consumer}'s frames into host memory for its host listener (see {@link #hostListeners}). */
    public boolean pushesToHost(int consumer) {
        return delivery == Delivery.LOSSLESS && hostListeners.contains(consumer);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** The default {@code maxPublishBatch} for a ring of {@code slots}: a quarter of the ring, 1 to 16. */
    public static int defaultMaxPublishBatch(int slots) {
        return Math.max(1, Math.min(16, slots / 4));
    }

    public RingGeometry geometry() {
        return RingGeometry.of(slots, slotBytes);
    }

    /** This spec, or an {@link InvalidChannelSpecException} listing every violation. */
    public ChannelSpec checked() {
        List<Violation> violations = validate("");
        if (!violations.isEmpty()) {
            throw new InvalidChannelSpecException(String.valueOf(name), violations);
        }
        return this;
    }

    /**
     * Everything wrong with this spec; property names are {@code prefix} followed by the
     * configuration key ({@code slots}, {@code slot-size}, ...).
     */
    public List<Violation> validate(String prefix) {
        List<Violation> v = new ArrayList<>();
        if (name == null || !NAME.matcher(name).matches()) {
            v.add(new Violation(prefix + "name", "channel name '" + name + "' is not 1 to " + MAX_NAME_LENGTH
                    + " letters, digits, '-' or '_' (it becomes a bean name, a metric tag and a URL path segment, "
                    + "so '/', '.' and spaces are not allowed)", "rename the channel, e.g. 'frames' or 'camera-1'"));
        }
        if (producer < 0) {
            v.add(new Violation(prefix + "producer", "producer device " + producer + " is negative",
                    "set a device ordinal of 0 or more"));
        }
        if (share != null && delivery != Delivery.LOSSLESS) {
            v.add(new Violation(prefix + "share", "a shared channel must be lossless: its consumer processes read the shared "
                    + "ring in place, which a latest channel's producer would overwrite under them",
                    "use delivery LOSSLESS for channel '" + name + "', or do not share it"));
        }
        if (transport == Transport.SHARED_MEMORY) {
            v.add(new Violation(prefix + "transport", "transport shared-memory is the transport of a channel attached from "
                    + "another process and cannot be forced", "share the channel (ChannelSpec.Builder.share) and leave "
                    + "transport at auto"));
        }
        if (consumers.isEmpty() && share == null) {
            v.add(new Violation(prefix + "consumers", "the channel has no consumers",
                    "list at least one consumer device, e.g. consumers: [1]"));
        } else {
            Set<Integer> seen = new HashSet<>();
            for (Integer c : consumers) {
                if (c == null || c < 0) {
                    v.add(new Violation(prefix + "consumers", "consumer device " + c + " is not a device ordinal",
                            "use device ordinals of 0 or more"));
                } else if (!seen.add(c)) {
                    v.add(new Violation(prefix + "consumers", "consumer device " + c + " is listed twice",
                            "list each consumer device once; a device runs one consumer per channel"));
                }
            }
        }
        if (slots < RingGeometry.MIN_SLOTS || slots > RingGeometry.MAX_SLOTS) {
            v.add(new Violation(prefix + "slots", "slots is " + slots + ", outside " + RingGeometry.MIN_SLOTS + " to "
                    + RingGeometry.MAX_SLOTS, "set slots between " + RingGeometry.MIN_SLOTS + " and " + RingGeometry.MAX_SLOTS
                    + " (default " + DEFAULT_SLOTS + ")"));
        }
        if (slotBytes < 1 || slotBytes > RingGeometry.MAX_SLOT_BYTES) {
            v.add(new Violation(prefix + "slot-size", "slot size is " + slotBytes + " bytes, outside 1 B to "
                    + RingGeometry.MAX_SLOT_BYTES + " B (1 GiB - 448 B: two slots must fit in one ring of at most 2 GiB - 1 B)",
                    "set slot-size between 1B and " + RingGeometry.MAX_SLOT_BYTES + "B, e.g. 16KB"));
        } else if (slots >= RingGeometry.MIN_SLOTS && slots <= RingGeometry.MAX_SLOTS
                && RingGeometry.strideFor(slotBytes) * slots > RingGeometry.MAX_RING_BYTES) {
            long stride = RingGeometry.strideFor(slotBytes);
            long maxSlots = RingGeometry.MAX_RING_BYTES / stride;
            long maxSlotBytes = (RingGeometry.MAX_RING_BYTES / slots & ~127L) - SlotHeader.BYTES;
            v.add(new Violation(prefix + "slot-size", "the ring is " + slots + " x " + stride + " B (slot size plus its 64-byte "
                    + "header, in 128-byte lines) = " + stride * slots + " B, above the " + RingGeometry.MAX_RING_BYTES
                    + " B (2 GiB - 1 B) of one ring: the producer's pinned staging ring is one host buffer, indexed by int",
                    (maxSlotBytes >= 1 ? "lower slot-size to at most " + maxSlotBytes + "B for " + slots + " slots, or " : "")
                    + "lower slots to at most " + maxSlots + " for this slot size"));
        }
        if (delivery == null) {
            v.add(new Violation(prefix + "delivery", "delivery is not set", "set delivery to lossless or latest"));
        }
        if (readMode == null) {
            v.add(new Violation(prefix + "read-mode", "read mode is not set", "set read-mode to copy or direct"));
        }
        if (transport == null) {
            v.add(new Violation(prefix + "transport", "transport is not set",
                    "set transport to auto, peer-atomic, peer-copy, host-staged or same-device"));
        }
        if (readMode == ReadMode.DIRECT && delivery == Delivery.LATEST) {
            v.add(new Violation(prefix + "read-mode", "read mode direct cannot be combined with delivery latest: "
                    + "a frame read in place can be overwritten while the listener reads it",
                    "use read-mode copy with delivery latest, or delivery lossless with read-mode direct"));
        }
        if (transport == Transport.SAME_DEVICE && consumers.stream().anyMatch(c -> c != null && c != producer)) {
            v.add(new Violation(prefix + "transport", "transport same-device needs every consumer on the producer's device "
                    + producer + ", but consumers are " + consumers, "use transport auto, or put the consumers on device " + producer));
        }
        if (maxPublishBatch < 1 || (slots >= RingGeometry.MIN_SLOTS && maxPublishBatch > slots - 1)) {
            v.add(new Violation(prefix + "max-publish-batch", "max publish batch is " + maxPublishBatch
                    + ", outside 1 to slots - 1 (" + (slots - 1) + ")",
                    "set max-publish-batch between 1 and " + Math.max(1, slots - 1)));
        }
        if (backpressureTimeout == null || backpressureTimeout.isNegative()) {
            v.add(new Violation(prefix + "backpressure-timeout", backpressureTimeout == null ? "backpressure timeout is not set"
                    : "backpressure timeout is " + written(backpressureTimeout) + ", which is negative: it must be 0 or more",
                    "set a duration of 0 or more (0: a blocking claim does not wait), e.g. 1s"));
        }
        if (stallTimeout == null || stallTimeout.isNegative() || stallTimeout.isZero()) {
            v.add(new Violation(prefix + "stall-timeout", stallTimeout == null ? "stall timeout is not set"
                    : "stall timeout is " + written(stallTimeout) + ", which is " + (stallTimeout.isZero() ? "zero" : "negative")
                    + ": it must be positive", "set a positive duration, e.g. 5s"));
        }
        if (consumerFailurePolicy == null) {
            v.add(new Violation(prefix + "consumer-failure-policy", "consumer failure policy is not set",
                    "set consumer-failure-policy to fail-channel, drop-consumer or keep-waiting"));
        }
        for (Integer h : hostListeners) {
            if (!consumers.contains(h)) {
                v.add(new Violation(prefix + "host-listeners", "host listener device " + h + " is not a consumer of the channel "
                        + "(consumers are " + consumers + ")", "list only consumer devices in ChannelSpec.Builder.hostListeners(...)"));
            }
        }
        return v;
    }

    /** A duration as a configuration writes it ({@code -1s}, {@code 500ms}), not as ISO-8601 ({@code PT-1S}). */
    private static String written(Duration d) {
        if (d.getNano() == 0 || Math.abs(d.getSeconds()) > 1_000_000_000L) {
            return d.getSeconds() + "s";
        }
        long nanos = d.toNanos();
        return nanos % 1_000_000 == 0 ? nanos / 1_000_000 + "ms" : nanos % 1_000 == 0 ? nanos / 1_000 + "us" : nanos + "ns";
    }

    /**
     * Refuses a device listener this channel cannot serve, as {@link ReadMode#DIRECT} is refused with
     * {@link Delivery#LATEST}: one that {@linkplain DeviceFrameHandler#consumesInKernel consumes in its kernel} reads
     * frames in place with no lapping check.
     */
    void checkDeviceListener(int consumer, DeviceFrameHandler handler) {
        Objects.requireNonNull(handler, "handler");
        if (delivery == Delivery.LATEST && handler.consumesInKernel()) {
            throw new IllegalArgumentException("channel '" + name + "' consumer " + consumer
                    + ": a device listener whose consumesInKernel() is true reads frames in place with no lapping check, "
                    + "which delivery LATEST cannot give; use delivery LOSSLESS for this channel, or a listener whose "
                    + "consumesInKernel() is false");
        }
    }

    /** Builds a {@link ChannelSpec} with defaults for everything but the name and devices. */
    public static final class Builder {
        private final String name;
        private int producer;
        private List<Integer> consumers = List.of();
        private int slots = DEFAULT_SLOTS;
        private long slotBytes = DEFAULT_SLOT_BYTES;
        private Delivery delivery = Delivery.LOSSLESS;
        private ReadMode readMode = ReadMode.COPY;
        private Transport transport = Transport.AUTO;
        private @Nullable Integer maxPublishBatch;
        private Duration backpressureTimeout = DEFAULT_BACKPRESSURE_TIMEOUT;
        private Duration stallTimeout = DEFAULT_STALL_TIMEOUT;
        private ConsumerFailurePolicy consumerFailurePolicy = ConsumerFailurePolicy.FAIL_CHANNEL;
        private boolean armedRounds = true;
        private List<Integer> hostListeners = List.of();
        private @Nullable ChannelShare share;

        private Builder(String name) {
            this.name = name;
        }

        public Builder producer(int device) {
            this.producer = device;
            return this;
        }

        public Builder consumers(@Nullable Integer @Nullable ... devices) {
            this.consumers = devices == null ? List.of() : java.util.Arrays.asList(devices);
            return this;
        }

        public Builder consumers(@Nullable List<Integer> devices) {
            this.consumers = devices == null ? List.of() : devices;
            return this;
        }

        public Builder slots(int slots) {
            this.slots = slots;
            return this;
        }

        public Builder slotBytes(long slotBytes) {
            this.slotBytes = slotBytes;
            return this;
        }

        public Builder delivery(Delivery delivery) {
            this.delivery = delivery;
            return this;
        }

        public Builder readMode(ReadMode readMode) {
            this.readMode = readMode;
            return this;
        }

        public Builder transport(Transport transport) {
            this.transport = transport;
            return this;
        }

        public Builder maxPublishBatch(int maxPublishBatch) {
            this.maxPublishBatch = maxPublishBatch;
            return this;
        }

        public Builder backpressureTimeout(Duration timeout) {
            this.backpressureTimeout = timeout;
            return this;
        }

        public Builder stallTimeout(Duration timeout) {
            this.stallTimeout = timeout;
            return this;
        }

        public Builder consumerFailurePolicy(ConsumerFailurePolicy policy) {
            this.consumerFailurePolicy = policy;
            return this;
        }

        public Builder armedRounds(boolean armed) {
            this.armedRounds = armed;
            return this;
        }

        /** The consumer devices whose listener is a host listener, known as the channel opens ({@link ChannelSpec#hostListeners}). */
        public Builder hostListeners(Integer... devices) {
            this.hostListeners = List.of(devices);
            return this;
        }

        /** The consumer devices whose listener is a host listener, known as the channel opens ({@link ChannelSpec#hostListeners}). */
        public Builder hostListeners(List<Integer> devices) {
            this.hostListeners = List.copyOf(devices);
            return this;
        }

        /**
         * Shares the channel with consumer processes of this host ({@link ChannelSpec#share}): they attach by name
         * ({@code SeqlinkRuntime.attachChannel}) and gate the producer like its own consumers. A shared channel may
         * have no consumer of its own process.
         */
        public Builder share(@Nullable ChannelShare share) {
            this.share = share;
            return this;
        }

        /** The spec, unchecked: call {@link ChannelSpec#checked()} or let the runtime check it. */
        public ChannelSpec build() {
            int batch = maxPublishBatch != null ? maxPublishBatch : defaultMaxPublishBatch(slots);
            return new ChannelSpec(name, producer, consumers, slots, slotBytes, delivery, readMode, transport, batch,
                    backpressureTimeout, stallTimeout, consumerFailurePolicy, armedRounds, hostListeners, share);
        }
    }
}
