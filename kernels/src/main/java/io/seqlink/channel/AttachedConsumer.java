package io.seqlink.channel;

/**
 * A consumer process attached to a shared channel, as its producer sees it ({@link PublishChannel#attachedConsumers()}).
 *
 * @param seat         its seat in the channel's shared region
 * @param epoch        its attachment's epoch (a new one at every attach)
 * @param pid          its process id, as it wrote it into its seat (0 until it did)
 * @param startsAfter  the sequence it started after: it gets the frames published after it
 * @param acknowledged the highest sequence it acknowledged
 * @param heartbeat    its heartbeat counter, raised every heartbeat period while it lives
 */
public record AttachedConsumer(int seat, long epoch, long pid, long startsAfter, long acknowledged, long heartbeat) {
}
