package io.seqlink.backend;

/**
 * An ordered queue of work on one device, like a CUDA stream: every operation starts after the
 * previous one has completed and its memory effects are visible to it. Enqueueing never waits for
 * the work (except when the queue is full) and never allocates.
 *
 * <p>Enqueueing is safe from several threads (a channel's producers share its producer stream): an
 * operation enqueued after another thread's enqueue returned runs after that one; calls that overlap
 * are ordered one way or the other.
 *
 * <p>Errors of work already enqueued surface as a {@link DeviceException} from a later call on the
 * stream or from {@link #synchronize()}.
 */
public interface DeviceStream extends AutoCloseable {

    Device device();

    String name();

    /** Copies {@code bytes} between any two memories the stream's device can reach. */
    void copy(Memory src, long srcOffset, Memory dst, long dstOffset, long bytes);

    /**
     * Writes one 64-bit word after all earlier work on the stream, with release ordering: everything
     * earlier work wrote is visible before the word is ({@code cuStreamWriteValue64}).
     */
    void writeValue(Memory dst, long offset, long value);

    /** Binds the publish step of one channel to this (the producer's) stream. */
    PublishKernel bindPublish(PublishBinding binding);

    /** Binds the consume step of one consumer to this (the consumer's) stream. */
    ConsumeKernel bindConsume(ConsumeBinding binding);

    /** Binds the ack step of one consumer to this (the consumer's) stream. */
    AckKernel bindAck(AckBinding binding);

    /**
     * Binds kernel {@code kernel} of a user's {@code module}, whose parameters are {@code params} in
     * declaration order, to this stream: see {@link KernelCall}. On the CUDA backend the module is
     * loaded into the device's context on first use ({@link KernelsMissingException} when its image is
     * not on the classpath; {@link DeviceException} when the image has no such kernel); on the emulated
     * backend its Java twin runs ({@link IllegalArgumentException} naming the fix when none is
     * registered). Binding allocates; launching does not. The binding lives as long as the stream.
     */
    KernelCall bindKernel(KernelModule module, String kernel, KernelParam... params);

    /** Waits until every enqueued operation has completed; throws the first failure. */
    void synchronize();

    /**
     * Whether every operation enqueued so far has completed, without waiting ({@code cuStreamQuery}).
     * Throws the stream's failure when its work failed, so a poller learns of a device fault even
     * when the word it waits for never lands.
     */
    boolean completed();

    /** Waits for the queued work, then releases the stream. Idempotent. */
    @Override
    void close();
}
