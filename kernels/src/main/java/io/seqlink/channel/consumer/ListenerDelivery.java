package io.seqlink.channel.consumer;

/**
 * How a round's frames reach one kind of listener: the steps a round of it enqueues on the consumer's stream,
 * whether it may be armed ahead of its frame, how a landed round is judged, its retry loop and how it acknowledges.
 * One implementation per kind: {@link HostFrameDelivery} and {@link HostBatchDelivery} (host listeners, frames
 * staged into the pinned host ring or pushed there by the producer: their {@link HostFrames}), and the device
 * listeners' {@link DeviceDelivery} with its three endings. The port's {@link Rounds} call these methods and never
 * ask which kind they have; a new delivery mode is one more implementation (or, for a host listener, one more
 * {@link HostFrames}).
 *
 * <p>An instance belongs to one subscription of one port. Its methods run on the port's deliverer: the poller, or the
 * listener thread while a round is with it, one at a time (the round's status hands the instance over).
 */
sealed interface ListenerDelivery permits HostDelivery, DeviceDelivery {

    /** {@link #land}: the round took nothing the listener gets; it ends with nothing handled. */
    int EMPTY = 0;
    /** {@link #land}: deliver the round ({@link #deliver}). */
    int DELIVER = 1;
    /** {@link #land}: the round was delivered on the device already; {@link Round#result} holds what it handled. */
    int COMPLETE = 2;
    /** {@link #deliver}: it stopped at a retry it may not wait for; deliver the round again on a thread that may wait. */
    long RESUME_ELSEWHERE = Long.MIN_VALUE;

    /** The listener, for messages and the Spring layer's names. */
    Object listener();

    /** Whether the port's next round may be armed ahead of its frame; {@code delegated}: the listener once held the device loop up. */
    boolean arms(boolean delegated);

    /**
     * How far the frames this listener reads were published, as the poller looks for a round to start: the producer's
     * host mirror of {@code publish_seq}, unless the frames reach this listener by a word of their own.
     */
    default long published(ProducerView producer) {
        return producer.publishedOnDevice();
    }

    /**
     * Enqueues an ordinary round's steps over its range (the frames were seen published); true when the round may be
     * delivered at once, false when it must land first ({@link #landed}).
     */
    boolean launch(Round r);

    /**
     * Enqueues armed round {@code r}'s steps after the stream wait on its doorbell (its one frame is not yet
     * published); false when the round must be released at once (its listener refused it).
     */
    boolean arm(Round r);

    /** Whether round {@code r}'s steps reached the host. */
    boolean landed(Round r);

    /**
     * Round {@code r} landed: reads what its consume step took into {@code r} and says what follows: {@link #EMPTY},
     * {@link #DELIVER} or {@link #COMPLETE}. {@code released}: the host released the armed round (an armed round
     * that took nothing is counted as released, or as an early wake).
     */
    int land(Round r, boolean released);

    /**
     * Delivers round {@code r} (what is left of it, when it resumes) to the listener with the retry policy, then
     * enqueues the acknowledgement of what was handled. With {@code mayWait} false it never waits: at the first retry
     * due it returns {@link #RESUME_ELSEWHERE}. Returns the highest sequence handled ({@code r.from - 1}: none).
     *
     * @throws io.seqlink.backend.DeviceException a device error: the consumer dies of it
     */
    long deliver(Round r, boolean mayWait);
}
