package io.seqlink.backend;

/**
 * One kernel of a {@link KernelModule} bound to one stream ({@link DeviceStream#bindKernel}), with its
 * parameter block: set the arguments by parameter index, then {@link #launch}. Arguments keep their
 * values between launches, so a per-frame launch sets only what changes. Neither setting nor launching
 * allocates; a launch only enqueues (the CUDA driver copies the arguments at the call, the emulated
 * backend keeps a copy for when its stream runs the twin).
 *
 * <p>Threading: one thread at a time. From the first setter until {@link #launch} returns, the call
 * belongs to the thread that set it; another thread that sets an argument or launches in that time gets
 * an {@link IllegalStateException} naming the rule. Arguments set once at bind time count as such a
 * set-up: launch from the thread that set them, or set them again where you launch. Use one binding per
 * thread, or serialise them (as {@link PatternKernels} does under its lock).
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
     * Enqueues the kernel with {@code blocks} x {@code threads} (1 to 1024 threads). Every parameter
     * must have been set once; until then this throws {@link IllegalStateException} naming the first
     * unset one, instead of launching with a null pointer (a sticky device fault).
     */
    void launch(int blocks, int threads);
}
