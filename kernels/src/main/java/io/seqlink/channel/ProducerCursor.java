package io.seqlink.channel;

/**
 * The producer's position in a channel, written by the producing thread on every frame. It lives in
 * an object of its own, padded on both sides (the Disruptor's {@code Sequence} trick: HotSpot lays out
 * superclass fields first), because consumer threads read the channel's other fields on every round:
 * next to these counters they lost a cache line to the producer once per frame.
 */
final class ProducerCursor extends ProducerCursorFields {
    long p11;
    long p12;
    long p13;
    long p14;
    long p15;
    long p16;
    long p17;
}

/** The counters: claimed, committed, published, and the cached slowest acknowledgement. */
abstract class ProducerCursorFields extends ProducerCursorPad {
    long claimed;
    long committed;
    long published;
    long cachedSlowest;
}

/** Padding in front of the counters. */
abstract class ProducerCursorPad {
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
}
