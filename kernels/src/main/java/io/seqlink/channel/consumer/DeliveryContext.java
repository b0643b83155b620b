package io.seqlink.channel.consumer;

import io.seqlink.layout.RingGeometry;
import org.jspecify.annotations.Nullable;

/**
 * What every listener delivery of one port works with: the port's memory and steps, its failure handling, its
 * counters and latency, and the channel's shape. Made once per port; deliveries of successive listeners share it.
 *
 * @param armedRounds whether the channel arms rounds at all (its {@code armed-rounds} setting)
 * @param seat        the seat of a port attached from another process, which every round is checked against and
 *                    acknowledged into ({@link LeasedSeat}); {@code null} for a channel's own port
 */
record DeliveryContext(String channel, int device, RingGeometry geometry, ConsumerSteps steps, Attempts attempts,
        CounterSet counters, LatencyRecorder latency, ProducerView producer, boolean armedRounds, @Nullable LeasedSeat seat) {

    /** Raises the port's handled position to {@code sequence}, after the counts of what was handled (see {@link PortCounters}). */
    void handled(long sequence) {
        counters.raiseRelease(PortCounters.C_HANDLED_TO, sequence);
    }
}
