package io.seqlink.test;

import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Helpers for tests of services that use seqlink: publish a frame, and wait (polling, with a
 * deadline) until consumers have taken what was published. Each wait returns as soon as its condition
 * holds; it fails with an {@link AssertionError} describing the channel at the deadline, and on
 * interrupt it fails at once, keeping the thread's interrupt flag. Safe from any thread; the publish
 * helper is the channel's producer and so obeys its rule (one producing thread at a time).
 */
public final class SeqlinkTestUtils {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private SeqlinkTestUtils() {
    }

    /**
     * Publishes {@code payload} as one frame, waiting up to {@code timeout} for a free slot; its sequence.
     *
     * @throws AssertionError when no slot came in time or the channel refused the claim (closed, failed)
     */
    public static long publish(PublishChannel channel, byte[] payload, Duration timeout) {
        long seq = channel.claim(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (seq < 0) {
            throw new AssertionError("channel '" + channel.name() + "' gave no slot within " + timeout + ": "
                    + ClaimStatus.describe(seq) + "; " + channel.snapshot());
        }
        channel.buffer().put(0, payload);
        channel.commit(payload.length);
        channel.publish();
        return seq;
    }

    /** Waits until every live consumer of {@code channel} has acknowledged {@code sequence}. */
    public static void awaitAcknowledged(PublishChannel channel, long sequence, Duration timeout) {
        awaitConsumers(channel, c -> c.state() == ConsumerState.DEAD || c.acknowledged() >= sequence, timeout,
                "every live consumer to acknowledge frame " + sequence);
    }

    /** Waits until every live consumer of {@code channel} has acknowledged everything published so far. */
    public static void awaitDrained(PublishChannel channel, Duration timeout) {
        awaitAcknowledged(channel, channel.snapshot().published(), timeout);
    }

    /** Waits until {@code channel} is in {@code state} (say {@code FAILED} after a device fault). */
    public static void awaitState(PublishChannel channel, ChannelState state, Duration timeout) {
        await(() -> channel.state() == state, timeout, () -> "channel '" + channel.name() + "' to be " + state + "; it is "
                + channel.state() + (channel.failure() == null ? "" : " (" + channel.failure().getMessage() + ")"));
    }

    /** Waits until the consumer on {@code device} of {@code channel} satisfies {@code condition}; its snapshot. */
    public static ConsumerSnapshot awaitConsumer(PublishChannel channel, int device, Predicate<ConsumerSnapshot> condition,
            Duration timeout) {
        channel.consumer(device); // names the consumers when there is none on device
        ConsumerSnapshot[] last = new ConsumerSnapshot[1];
        await(() -> {
            last[0] = consumer(channel, device);
            return condition.test(last[0]);
        }, timeout, () -> "consumer " + device + " of channel '" + channel.name() + "' to reach the condition; last: "
                + last[0]);
        return last[0];
    }

    private static void awaitConsumers(PublishChannel channel, Predicate<ConsumerSnapshot> condition, Duration timeout,
            String what) {
        await(() -> channel.snapshot().consumers().stream().allMatch(condition), timeout,
                () -> what + " on channel '" + channel.name() + "'; last: " + channel.snapshot());
    }

    private static ConsumerSnapshot consumer(PublishChannel channel, int device) {
        return channel.snapshot().consumers().stream().filter(c -> c.device() == device).findFirst().orElseThrow();
    }

    private static void await(java.util.function.BooleanSupplier done, Duration timeout,
            java.util.function.Supplier<String> what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what.get());
            }
            try {
                TimeUnit.NANOSECONDS.sleep(POLL_NANOS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what.get(), ex);
            }
        }
    }
}
