package io.seqlink.backend;

/**
 * The kind of one parameter of a user kernel, in the order the kernel declares them. The CUDA backend
 * lays out the launch's parameter block from these (each value 8-byte aligned, as the driver reads it
 * through one pointer per parameter); a count that differs from the kernel's own makes the driver read
 * garbage, so keep the two in step.
 *
 * <pre>
 *   POINTER          uint64_t (or T*)        a device address: Memory + offset, bounds-checked
 *   U64 / U32        uint64_t / uint32_t     (signed kinds pass the same bits)
 *   F32 / F64        float / double
 *   PUBLISH_HANDLES  seqlink::PublishArgs    a channel's publish handles, by value (seqlink_device.cuh)
 *   CONSUME_HANDLES  seqlink::ConsumeArgs    a consumer's handles, by value (seqlink_device.cuh)
 * </pre>
 */
public enum KernelParam {
    POINTER(8),
    U64(8),
    U32(4),
    F32(4),
    F64(8),
    PUBLISH_HANDLES(KernelHandles.PUBLISH_BYTES),
    CONSUME_HANDLES(KernelHandles.CONSUME_BYTES);

    private final int bytes;

    KernelParam(int bytes) {
        this.bytes = bytes;
    }

    /** The parameter's size in the kernel's parameter block. */
    public int bytes() {
        return bytes;
    }
}
