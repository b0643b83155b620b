package io.seqlink.channel.consumer;

/**
 * A host listener's frames pushed by the producer: its publish step copied every frame into the port's
 * {@link HostPush} replica and then stored the replica's {@code publish_seq}, so a round is the frames up to that
 * word (one acquire load, where the poller looks for work) and is delivered at once, read in place. Nothing runs on
 * the consumer's device: no consume step, no copy, no stream write, and nothing to arm (an idle port is one the poller
 * finds with nothing new in the replica; its idle strategy decides how soon it looks again).
 *
 * <p>The acknowledgement is a host release store of the mirror's {@code consumed_seq} (the word the producer's
 * gating acquires; nothing on a device reads it), after the listener's reads of the replica: the producer claims a
 * slot again, and so pushes into its replica slot, only after it saw the store. A stream-written ack of an earlier
 * listener of the port (a device listener's, or an armed round's) could land after such a store and move the word
 * back, so the first round waits until the consumer's stream has run everything enqueued before it; this delivery
 * enqueues nothing, so from then on the host is the word's only writer. Lossless channels only
 * ({@link io.seqlink.channel.ChannelSpec#pushesToHost}): a latest channel's producer would push into a slot the
 * listener still reads.
 */
final class PushedHostFrames implements HostFrames {

    private final DeliveryContext ctx;
    private final HostPush push;
    /** The consumer's stream has run everything enqueued before this subscription (handed over with the round). */
    private boolean streamQuiet;

    PushedHostFrames(DeliveryContext ctx, HostPush push) {
        this.ctx = ctx;
        this.push = push;
    }

    @Override
    public HostRing ring() {
        return push.ring;
    }

    @Override
    public boolean arms() {
        return false; // the producer pushes: there is no step to hold behind a doorbell
    }

    @Override
    public long published(ProducerView producer) {
        return push.published(); // the replica's own word: the frames up to it are in host memory, stamped
    }

    @Override
    public boolean launch(Round r) {
        return streamQuiet();
    }

    @Override
    public boolean arm(Round r) {
        return false; // never armed (arms() is false); were it, released at once
    }

    @Override
    public boolean landed(Round r) {
        return streamQuiet();
    }

    @Override
    public int land(Round r, boolean released) {
        return r.armed ? ListenerDelivery.EMPTY : ListenerDelivery.DELIVER;
    }

    /** Always: the frames are read in place from a replica nothing rewrites before its acknowledgement. */
    @Override
    public boolean mayCall(long from, long sequence) {
        return true;
    }

    @Override
    public void acknowledge(long sequence) {
        ctx.steps().acknowledgeFromHost(sequence);
    }

    /** Whether every stream write of an earlier listener's ack has landed (asked until it has; then never again). */
    private boolean streamQuiet() {
        if (!streamQuiet) {
            streamQuiet = ctx.steps().stream.completed();
        }
        return streamQuiet;
    }
}
