package io.seqlink.channel;

import io.seqlink.topology.Transport;
import org.jspecify.annotations.Nullable;

/**
 * One consumer's position and counters at one moment.
 *
 * @param device            consumer device
 * @param transport         transport in use
 * @param state             active, paused, dead or closed
 * @param stalled           frames wait and no ack came within the stall timeout
 * @param retrying          the listener is retrying a failed frame (or holds at one its error handler refused)
 * @param acknowledged      highest acknowledged sequence (the host mirror of {@code consumed_seq})
 * @param lag               frames published on the device and not yet acknowledged
 * @param delivered         frames handed to the listener and handled
 * @param missed            frames never delivered: lapped ({@code latest}) or overwritten while read
 * @param laps              frames the consume step found overwritten (device counter)
 * @param rounds            consume rounds launched
 * @param deviceReads       consume steps that found frames (device counter)
 * @param deviceEmptyPolls  consume steps that found none (device counter; should stay near 0)
 * @param hostEmptyPolls    launcher looks at the host mirror that found nothing new
 * @param retries           listener deliveries retried
 * @param deadLettered      frames handed to the error handler
 * @param stalls            stall episodes seen
 * @param latencyCount      frames with a publish-to-ack latency recorded
 * @param latencyTotalNanos sum of those latencies
 * @param latencyMaxNanos   largest of them
 * @param failure           why the consumer is dead, or {@code null}
 */
public record ConsumerSnapshot(int device, Transport transport, ConsumerState state, boolean stalled, boolean retrying,
        long acknowledged,
        long lag, long delivered, long missed, long laps, long rounds, long deviceReads, long deviceEmptyPolls,
        long hostEmptyPolls, long retries, long deadLettered, long stalls, long latencyCount, long latencyTotalNanos,
        long latencyMaxNanos, @Nullable String failure) {
}
