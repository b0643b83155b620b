package io.seqlink.channel.producer;

/**
 * How a channel's committed frames are published on the producer's stream: the backend's publish kernel (a ring in
 * device memory, replicas to push), or {@link HostRingPublish} (a ring in host memory). {@link ProducerTransport} binds
 * one as the channel opens; the sequencer's publisher calls it, one thread at a time.
 */
interface PublishStep {

    /** Publishes frames {@code first .. first + count - 1}, whose data earlier work on the stream or the host wrote. */
    void publish(long first, int count);
}
