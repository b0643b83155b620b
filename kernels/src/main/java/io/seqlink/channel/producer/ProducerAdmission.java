package io.seqlink.channel.producer;

import io.seqlink.channel.ChannelFailedException;
import io.seqlink.channel.ChannelState;

/**
 * What a channel's producer calls ask of the channel's life: whether the calling thread may produce now (inside
 * the producer memory guard, which a claim keeps until its commit), why not, and how a device error fails the
 * channel. Implemented by the channel that owns the {@link Producer}; every method is safe from any thread.
 */
public interface ProducerAdmission {

    /** Enters the producer guard if the calling thread may produce now; a {@code true} pairs with {@link #exitProducer()}. */
    boolean enterProducer();

    void exitProducer();

    /** Whether the calling thread, already inside the guard, may produce now (a claim that commits). */
    boolean admitsProducer();

    /** The claim status a refused producer call returns ({@code CLOSED} or {@code FAILED}). */
    long refusedStatus();

    /** Throws what a producer call {@code call} on a channel that refuses it throws, {@code detail} appended. */
    void throwUnusable(String call, String detail);

    /** Fails the channel of {@code cause}, raised on {@code device}, and returns what the caller throws. */
    ChannelFailedException fail(Throwable cause, int device);

    ChannelState state();

    /** Enters the observers' guard (the channel's memory stays while inside); a {@code true} pairs with {@link #exitObserver()}. */
    boolean enterObserver();

    void exitObserver();
}
