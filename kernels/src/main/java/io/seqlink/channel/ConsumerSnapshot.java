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
 * @param deviceEmptyPolls  ordinary consume steps (started on seeing frames published) that found none (device
 *                          counter less the armed rounds below; should stay 0)
 * @param armedEarlyWakes   armed rounds that landed empty though the host did not release them: the wait
 *                          passed on a doorbell before the add it follows was visible (should stay near 0), or
 *                          another consumer's cancel raised the shared doorbell; harmless, the frame comes by
 *                          an ordinary round
 * @param armedReleased     armed rounds the host released before their frame came, which landed empty: this
 *                          consumer's cancel (close, pause, stall timeout, a failure) or the backend's release
 *                          before a module load or a context synchronisation
 * @param hostEmptyPolls    launcher looks at the host mirror that found nothing new
 * @param retries           listener deliveries retried
 * @param deadLettered      frames handed to the error handler
 * @param paddingSkipped    padding acknowledged and never delivered: sequences of claims given back (not in
 *                          {@code delivered}; a device listener's kernel skips them with {@code seqlink::device::abandoned})
 * @param stalls            stall episodes seen
 * @param latencyCount      frames with a publish-to-ack latency recorded
 * @param latencyTotalNanos sum of those latencies
 * @param latencyMaxNanos   largest of them
 * @param shortRounds       ordinary consume rounds that took fewer frames than the launcher saw published (device
 *                          counter); the protocol rules it out, so it stays 0, and the watchdog fails the consumer
 *                          when it is not
 * @param failure           why the consumer is dead, or {@code null}
 */
public record ConsumerSnapshot(int device, Transport transport, ConsumerState state, boolean stalled, boolean retrying,
        long acknowledged,
        long lag, long delivered, long missed, long laps, long rounds, long deviceReads, long deviceEmptyPolls,
        long armedEarlyWakes, long armedReleased, long hostEmptyPolls, long retries, long deadLettered, long paddingSkipped, long stalls,
        long latencyCount, long latencyTotalNanos, long latencyMaxNanos, long shortRounds, @Nullable String failure) {

    /** Every consume step that ran on the device: those that found frames, the ordinary empty ones and the armed empty ones. */
    public long deviceConsumeSteps() {
        return deviceReads + deviceEmptyPolls + armedEarlyWakes + armedReleased;
    }
}
