package io.seqlink.channel.consumer;

/**
 * Where a host listener's frames come from, and so what a round of them is on the device and how it is acknowledged:
 * {@link StagedHostFrames} (the consumer's stream consumes and copies each round into the pinned host ring),
 * {@link PushedHostFrames} (the producer's publish step pushed every frame into a host replica already; nothing runs
 * on the consumer's device) or {@link LeasedHostFrames} (those of a channel attached from another process, valid while
 * its seat holds). {@link HostDelivery} takes one and leaves to it everything but the listener's calls.
 * A new instance per subscription; its methods run on the port's deliverer, as {@link ListenerDelivery}'s do.
 */
sealed interface HostFrames permits StagedHostFrames, PushedHostFrames, LeasedHostFrames {

    /** The host ring the listener reads the round's frames from. */
    HostRing ring();

    /** {@link ListenerDelivery#arms}: whether an idle port keeps its next round armed. */
    boolean arms();

    /** {@link ListenerDelivery#published}: the frames the poller may start a round over. */
    long published(ProducerView producer);

    /** {@link ListenerDelivery#launch}. */
    boolean launch(Round r);

    /** {@link ListenerDelivery#arm}. */
    boolean arm(Round r);

    /** {@link ListenerDelivery#landed}. */
    boolean landed(Round r);

    /** {@link ListenerDelivery#land}. */
    int land(Round r, boolean released);

    /**
     * Whether the listener may be called for frame {@code sequence} of the round that began at {@code from}, looked at
     * before each call of a single-frame listener: false (final) ends the round's calls there; what was handled before
     * is then acknowledged or reported as {@link #acknowledge} decides.
     */
    boolean mayCall(long from, long sequence);

    /** Acknowledges every frame up to {@code sequence}, after the listener's reads of them. */
    void acknowledge(long sequence);
}
