package io.seqlink.bench;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * How a host listener's frames reach it in the host rows, through the public API only: {@link Polled}, the
 * measuring thread polls the port itself ({@link ConsumerPort#poll(int)}, a user's own loop), or {@link Launched},
 * the launcher of a started runtime delivers them on its device loop (a subscribed listener, as a Spring
 * {@code @ChannelListener} gets its frames) while the measuring thread only watches. Each opens the rows' channels
 * on a runtime where that delivery is allowed (a port is polled by a user only while its runtime is not started).
 * Used by the harness thread; the waits throw after 10 s without progress, or at once when the consumer died.
 */
sealed interface HostListenerDelivery permits HostListenerDelivery.Polled, HostListenerDelivery.Launched {

    /** The rows' name for it: {@code polled} or {@code launcher}. */
    String id();

    /** Opens a row's channel where this delivery can drive it. */
    PublishChannel open(BenchEnvironment env, ChannelSpec spec);

    /** Untimed, before the frame of a one-in-flight row is produced. */
    void beforeFrame(ConsumerPort port);

    /** One frame in flight: returns once {@code value} reached {@code target}. */
    void awaitFrame(ConsumerPort port, LongSupplier value, long target, String what);

    /**
     * Frames in flight (a producer thread publishes them): returns once {@code value} reached {@code target}, taking
     * rounds of up to {@code maxFrames} where this delivery polls.
     */
    void awaitBacklog(ConsumerPort port, int maxFrames, LongSupplier value, long target, Progress progress);

    /** What a thread other than the measuring one allocated delivering the check's window of frames (-1: unknown). */
    long otherThreadBytes(HostFrameCheck check);

    /** The measuring thread polls: one round on the calling thread per look, the listener called inline. */
    record Polled() implements HostListenerDelivery {

        @Override
        public String id() {
            return "polled";
        }

        @Override
        public PublishChannel open(BenchEnvironment env, ChannelSpec spec) {
            return env.openChannel(env.runtime(), spec);
        }

        /** A look at the port with nothing published: where armed rounds are on, it arms the next frame's round. */
        @Override
        public void beforeFrame(ConsumerPort port) {
            port.poll(1);
        }

        @Override
        public void awaitFrame(ConsumerPort port, LongSupplier value, long target, String what) {
            int idle = 0;
            long deadline = 0;
            while (value.getAsLong() < target) {
                if (port.poll(1) == 0 && (++idle & 1023) == 0) {
                    deadline = checkIn(port, deadline, what, target, value);
                }
            }
        }

        @Override
        public void awaitBacklog(ConsumerPort port, int maxFrames, LongSupplier value, long target, Progress progress) {
            while (value.getAsLong() < target) {
                if (port.poll(maxFrames) > 0) {
                    progress.moved();
                } else {
                    progress.idle();
                    aliveOrThrow(port);
                }
            }
        }

        /** The listener ran on the measuring thread: its bytes are the measuring thread's. */
        @Override
        public long otherThreadBytes(HostFrameCheck check) {
            return 0;
        }
    }

    /**
     * The launcher delivers: a runtime of its own, opened like the harness's and started, with the launcher's default
     * settings (those of the Spring starter). Close it after its rows.
     */
    record Launched(SeqlinkRuntime runtime) implements HostListenerDelivery, AutoCloseable {

        /** How long the measuring thread parks between looks at a pipelined row's progress. */
        private static final long LOOK_NANOS = 20_000;

        @Override
        public String id() {
            return "launcher";
        }

        @Override
        public PublishChannel open(BenchEnvironment env, ChannelSpec spec) {
            return env.openChannel(runtime, spec);
        }

        @Override
        public void beforeFrame(ConsumerPort port) {
            // the launcher's device loop looks at the port on its own
        }

        @Override
        public void awaitFrame(ConsumerPort port, LongSupplier value, long target, String what) {
            int spins = 0;
            long deadline = 0;
            while (value.getAsLong() < target) {
                if ((++spins & 1023) == 0) {
                    deadline = checkIn(port, deadline, what, target, value);
                }
                Thread.onSpinWait();
            }
        }

        @Override
        public void awaitBacklog(ConsumerPort port, int maxFrames, LongSupplier value, long target, Progress progress) {
            long before = value.getAsLong();
            while (before < target) {
                LockSupport.parkNanos(LOOK_NANOS);
                long now = value.getAsLong();
                if (now > before) {
                    progress.moved();
                } else {
                    progress.idleAfterPark();
                    aliveOrThrow(port);
                }
                before = now;
            }
        }

        @Override
        public long otherThreadBytes(HostFrameCheck check) {
            return check.deliveringThreadBytes();
        }

        @Override
        public void close() {
            runtime.close();
        }
    }

    /** Throws when the consumer died, or when {@code deadline} (set on the first call) passed; returns the deadline. */
    private static long checkIn(ConsumerPort port, long deadline, String what, long target, LongSupplier value) {
        aliveOrThrow(port);
        long now = System.nanoTime();
        if (deadline == 0) {
            return now + Spin.DEFAULT_TIMEOUT_NANOS;
        }
        if (now - deadline > 0) {
            throw new Spin.StuckException(what + " did not reach " + target + " within " + Spin.DEFAULT_TIMEOUT_NANOS / 1_000_000_000
                    + " s (it is " + value.getAsLong() + "): " + port.snapshot());
        }
        return deadline;
    }

    private static void aliveOrThrow(ConsumerPort port) {
        if (port.state() == ConsumerState.DEAD) {
            throw new IllegalStateException("consumer " + port.device() + " of channel " + port.channel() + " died: " + port.failure());
        }
    }
}
