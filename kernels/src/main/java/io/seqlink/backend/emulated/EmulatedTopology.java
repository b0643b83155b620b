package io.seqlink.backend.emulated;

import java.util.Arrays;
import java.util.Objects;

/**
 * The simulated machine: how many devices, how each ordered pair (accessor, owner) is linked, the
 * latency injected into every remote access, and how streams run.
 *
 * <p>Immutable; build with {@link #builder(int)}.
 */
public final class EmulatedTopology {

    /** Latency added to each remote access of an {@link LinkMode#NVLINK_PROXIED} link unless set. */
    public static final long DEFAULT_PROXIED_LATENCY_NANOS = 4_000;

    /** The most devices a simulated machine has. */
    public static final int MAX_DEVICES = 64;

    private final int deviceCount;
    private final LinkMode[][] modes;
    private final long[][] latencyNanos;
    private final StreamMode streamMode;
    private final int streamQueueCapacity;

    private EmulatedTopology(Builder b) {
        this.deviceCount = b.deviceCount;
        this.modes = deepCopy(b.modes);
        this.latencyNanos = deepCopy(b.latencyNanos);
        this.streamMode = b.streamMode;
        this.streamQueueCapacity = b.streamQueueCapacity;
    }

    /** All pairs {@link LinkMode#NVLINK}, no injected latency, inline streams. */
    public static EmulatedTopology allNvlink(int deviceCount) {
        return builder(deviceCount).build();
    }

    public static Builder builder(int deviceCount) {
        return new Builder(deviceCount);
    }

    public int deviceCount() {
        return deviceCount;
    }

    /** How {@code accessor} reaches memory of {@code owner}; a device reaches its own memory natively. */
    public LinkMode mode(int accessor, int owner) {
        return accessor == owner ? LinkMode.NVLINK : modes[accessor][owner];
    }

    /** Nanoseconds added to each remote access from {@code accessor} to memory of {@code owner}. */
    public long latencyNanos(int accessor, int owner) {
        return accessor == owner ? 0 : latencyNanos[accessor][owner];
    }

    public StreamMode streamMode() {
        return streamMode;
    }

    public int streamQueueCapacity() {
        return streamQueueCapacity;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("EmulatedTopology[devices=").append(deviceCount).append(", streams=").append(streamMode);
        for (int a = 0; a < deviceCount; a++) {
            for (int o = 0; o < deviceCount; o++) {
                if (a != o) {
                    sb.append(", ").append(a).append("->").append(o).append('=').append(modes[a][o]);
                    if (latencyNanos[a][o] > 0) {
                        sb.append('+').append(latencyNanos[a][o]).append("ns");
                    }
                }
            }
        }
        return sb.append(']').toString();
    }

    private static <T> T[][] deepCopy(T[][] src) {
        T[][] copy = src.clone();
        for (int i = 0; i < copy.length; i++) {
            copy[i] = src[i].clone();
        }
        return copy;
    }

    private static long[][] deepCopy(long[][] src) {
        long[][] copy = src.clone();
        for (int i = 0; i < copy.length; i++) {
            copy[i] = src[i].clone();
        }
        return copy;
    }

    /** How emulated streams execute their work. */
    public enum StreamMode {
        /**
         * Work runs on the enqueuing thread at enqueue time, unless the stream is stalled (then it
         * queues until resumed). A legal schedule of an asynchronous stream, and the fastest.
         */
        INLINE,
        /** Each stream has a worker thread that drains its queue: asynchronous, like a GPU. */
        THREADED
    }

    /** Builds an {@link EmulatedTopology}; every pair starts as {@link LinkMode#NVLINK}. */
    public static final class Builder {
        private final int deviceCount;
        private final LinkMode[][] modes;
        private final long[][] latencyNanos;
        private StreamMode streamMode = StreamMode.INLINE;
        private int streamQueueCapacity = 1024;

        private Builder(int deviceCount) {
            if (deviceCount < 1 || deviceCount > MAX_DEVICES) {
                throw new IllegalArgumentException("deviceCount must be between 1 and " + MAX_DEVICES + ", was " + deviceCount);
            }
            this.deviceCount = deviceCount;
            this.modes = new LinkMode[deviceCount][deviceCount];
            this.latencyNanos = new long[deviceCount][deviceCount];
            for (LinkMode[] row : modes) {
                Arrays.fill(row, LinkMode.NVLINK);
            }
        }

        /** Sets both directions of the pair {@code a, b}. */
        public Builder link(int a, int b, LinkMode mode) {
            return directed(a, b, mode).directed(b, a, mode);
        }

        /** Sets how {@code accessor} reaches memory of {@code owner}. */
        public Builder directed(int accessor, int owner, LinkMode mode) {
            check(accessor, "accessor");
            check(owner, "owner");
            modes[accessor][owner] = Objects.requireNonNull(mode, "mode");
            if (mode == LinkMode.NVLINK_PROXIED && latencyNanos[accessor][owner] == 0) {
                latencyNanos[accessor][owner] = DEFAULT_PROXIED_LATENCY_NANOS;
            }
            return this;
        }

        /** Injects {@code nanos} into every remote access between {@code a} and {@code b}, both directions. */
        public Builder latency(int a, int b, long nanos) {
            check(a, "a");
            check(b, "b");
            if (nanos < 0) {
                throw new IllegalArgumentException("latency must not be negative, was " + nanos);
            }
            latencyNanos[a][b] = nanos;
            latencyNanos[b][a] = nanos;
            return this;
        }

        public Builder streamMode(StreamMode mode) {
            this.streamMode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** Operations a stream queues before an enqueue waits, like the driver's launch queue. */
        public Builder streamQueueCapacity(int capacity) {
            if (capacity < 16 || Integer.bitCount(capacity) != 1) {
                throw new IllegalArgumentException("streamQueueCapacity must be a power of two of at least 16, was " + capacity);
            }
            this.streamQueueCapacity = capacity;
            return this;
        }

        public EmulatedTopology build() {
            return new EmulatedTopology(this);
        }

        private void check(int device, String what) {
            if (device < 0 || device >= deviceCount) {
                throw new IllegalArgumentException(what + " must be a device between 0 and " + (deviceCount - 1) + ", was " + device);
            }
        }
    }
}
