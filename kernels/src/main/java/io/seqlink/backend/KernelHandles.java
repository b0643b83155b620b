package io.seqlink.backend;

/**
 * The channel handles a user kernel can take, as {@link KernelParam#PUBLISH_HANDLES} and
 * {@link KernelParam#CONSUME_HANDLES} parameters: the by-value structs {@code seqlink::PublishArgs} and
 * {@code seqlink::ConsumeArgs} of {@code seqlink_args.cuh} (device pointers of the control block, ring,
 * mirrors, scratch line and doorbells, and the ring's shape). Their sizes here are checked against the
 * compiled header by a contract test.
 */
public final class KernelHandles {

    /** {@code sizeof(seqlink::PublishArgs)}. */
    public static final int PUBLISH_BYTES = 352;
    /** {@code sizeof(seqlink::ConsumeArgs)}. */
    public static final int CONSUME_BYTES = 88;

    private KernelHandles() {
    }
}
