package io.seqlink.backend;

/**
 * One kernel of a {@link KernelModule} bound to one stream ({@link DeviceStream#bindKernel}), with its
 * parameter block: set the arguments by parameter index, then {@link #launch}. Arguments keep their
 * values between launches, so a per-frame launch sets only what changes. Neither setting nor launching
 * allocates; a launch only enqueues (the CUDA driver copies the arguments at the call, the emulated
 * backend keeps a copy for when its stream runs the twin).
 *
 * <p>Threading: one thread at a time, enforced. A thread takes the call with its first setter (or
 * {@link #launch}) and holds it until {@link #launch} returns, {@link #handOver()} gives it up, or one
 * of its setters or launches throws; while it is held, another thread's setter or launch throws an
 * {@link IllegalStateException} naming the holder and the rule. Ownership moves atomically, and a
 * thread that takes a released call sees every argument set before the release. So the arguments that
 * never change can be set where the call is bound and handed over to the thread that launches:
 *
 * <pre>{@code
 * KernelCall take = consumerStream.bindKernel(module, "my_consume", CONSUME_HANDLES, U64, U64, POINTER)
 *         .consumeHandles(0, consume).pointer(3, sums, 0)   // fixed: set once, at startup
 *         .handOver();                                      // the launcher thread takes it from here
 * // launcher thread, per round: only what changes
 * take.u64(1, from).u64(2, to).launch(blocks, 256);
 * }</pre>
 *
 * Several threads that launch the same call must serialise their set-and-launch sequences themselves
 * (as {@link PatternKernels} does under its lock), or bind one call each. {@link #kernel()} and
 * {@link #stream()} are safe from any thread.
 */
public interface KernelCall {

    /** The kernel's name in its module. */
    String kernel();

    /** The stream launches go to. */
    DeviceStream stream();

    /** A {@link KernelParam#POINTER}: the device address of {@code memory} plus {@code offset} ({@code 0 <= offset <= bytes}). */
    KernelCall pointer(int index, Memory memory, long offset);

    KernelCall u64(int index, long value);

    KernelCall u32(int index, int value);

    KernelCall f32(int index, float value);

    KernelCall f64(int index, double value);

    /**
     * A {@link KernelParam#PUBLISH_HANDLES}: the handles of the channel whose publish step is
     * {@code publish}, so the kernel can publish at its end ({@code seqlink::device::publish_at_end}).
     * The publish step must be bound to this call's stream (the producer's stream is the only writer
     * of {@code publish_seq}), and the channel may have no push consumers (the device header's subset).
     */
    KernelCall publishHandles(int index, PublishKernel publish);

    /**
     * A {@link KernelParam#CONSUME_HANDLES}: the handles of the consumer whose consume step is
     * {@code consume} (bound to this call's stream), so the kernel can begin with the acquire read and
     * end with the ack.
     */
    KernelCall consumeHandles(int index, ConsumeKernel consume);

    /**
     * Gives the call up without launching it: the arguments keep their values, and the next thread to
     * set one or launch takes the call (and sees them). Returns this call. A no-op when no thread holds
     * it; an {@link IllegalStateException} when another thread does.
     */
    KernelCall handOver();

    /**
     * Enqueues the kernel with {@code blocks} x {@code threads} (1 to 1024 threads). Every parameter
     * must have been set once; until then this throws {@link IllegalStateException} naming the first
     * unset one, instead of launching with a null pointer (a sticky device fault). Gives the call up
     * when it returns or throws.
     */
    void launch(int blocks, int threads);
}
