package io.seqlink.channel;

/**
 * A consumer process attached to a shared channel, as its producer sees it ({@link PublishChannel#attachedConsumers()},
 * {@link ChannelSnapshot#attached()}).
 *
 * @param seat              its seat in the channel's shared region
 * @param epoch             its attachment's epoch (a new one at every attach)
 * @param pid               its process id, as it wrote it into its seat (0 until it did)
 * @param startsAfter       the sequence it started after: it gets the frames published after it
 * @param acknowledged      the highest sequence it acknowledged
 * @param lag               frames the producer had published and it had not acknowledged, when this was read
 * @param heartbeat         its heartbeat counter, raised every heartbeat period while it lives
 * @param heartbeatAgeNanos how long its heartbeat had not moved when this was read, as the producer's heartbeat
 *                          thread last looked (so to within one heartbeat period); 0 until that thread first saw it.
 *                          The producer drops the seat once this reaches the channel's stall timeout
 */
public record AttachedConsumer(int seat, long epoch, long pid, long startsAfter, long acknowledged, long lag, long heartbeat,
        long heartbeatAgeNanos) {
}
