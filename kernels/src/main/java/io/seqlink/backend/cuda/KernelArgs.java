package io.seqlink.backend.cuda;

import java.util.List;

/**
 * Sizes and field offsets of the argument structs in {@code seqlink_args.cuh}, which kernels take by
 * value. All fields are 64-bit words, so the layout is the field order times 8. Internal: public only
 * so the contract test can compare it with the compiled structs.
 */
public final class KernelArgs {

    private KernelArgs() {
    }

    /** The most replicas one publish step writes ({@code MAX_PUSH_TARGETS}). */
    public static final int MAX_PUSH_TARGETS = 16;

    public static final int PUBLISH_CONTROL = 0;
    public static final int PUBLISH_RING = 8;
    public static final int PUBLISH_MIRROR = 16;
    public static final int PUBLISH_SCRATCH = 24;
    public static final int PUBLISH_SLOTS = 32;
    public static final int PUBLISH_STRIDE = 40;
    public static final int PUBLISH_SLOT_BYTES = 48;
    public static final int PUBLISH_MAX_BATCH = 56;
    public static final int PUBLISH_PUSH_COUNT = 64;
    public static final int PUBLISH_STAGING = 72;
    public static final int PUBLISH_DOORBELLS = 80;
    public static final int PUBLISH_DOORBELL_COUNT = 88;
    public static final int PUBLISH_PUSH_CONTROL = 96;
    public static final int PUBLISH_PUSH_RING = PUBLISH_PUSH_CONTROL + 8 * MAX_PUSH_TARGETS;
    public static final int PUBLISH_BYTES = PUBLISH_PUSH_RING + 8 * MAX_PUSH_TARGETS;

    public static final int CONSUME_CONTROL = 0;
    public static final int CONSUME_RING = 8;
    public static final int CONSUME_LOCAL_RING = 16;
    public static final int CONSUME_BLOCK = 24;
    public static final int CONSUME_MIRROR = 32;
    public static final int CONSUME_SCRATCH = 40;
    public static final int CONSUME_SLOTS = 48;
    public static final int CONSUME_STRIDE = 56;
    public static final int CONSUME_SLOT_BYTES = 64;
    public static final int CONSUME_MAX_BATCH = 72;
    public static final int CONSUME_LAPPING = 80;
    public static final int CONSUME_BYTES = 88;

    /** Bytes of a binding's scratch line ({@code struct Scratch}); {@code min_sequence} at 8. */
    public static final int SCRATCH_BYTES = 128;
    public static final int SCRATCH_MIN_SEQUENCE = 8;

    /**
     * Every kernel of the runtime fat binary: the channel steps and the link probe, nothing else
     * (RuntimeFatbinContentsTest holds the compiled binary to this list). Resolved when a device's
     * context opens: under CUDA's lazy module loading a kernel loads at first use, and loading waits for
     * the kernels already running on the device (measured: two spinning baseline kernels deadlocked on
     * it until their spin limits expired), so resolving them all up front keeps that pause out of the
     * first publish, consume or ack.
     */
    public static final List<String> RUNTIME_KERNELS = List.of("seqlink_publish_init", "seqlink_publish", "seqlink_consume",
            "seqlink_ack", "seqlink_ack_ready", "seqlink_write_value", "seqlink_probe_fill", "seqlink_probe_checksum", "seqlink_probe_counted_add",
            "seqlink_probe_chain_add", "seqlink_probe_chain_load", "seqlink_probe_throughput");

    /** Threads per block of the multi-threaded kernels ({@code BLOCK_THREADS}). */
    public static final int BLOCK_THREADS = 256;
    /** Bytes one block of a copying kernel is given before a second block is added. */
    public static final long BYTES_PER_BLOCK = 32 * 1024;
    /**
     * Bytes per block of a consume round larger than {@link #BYTES_PER_BLOCK} (which stays one block: one
     * cross-device acquire read, no grid hand-off). Measured on the H200 (2026-12-01, the comparator's
     * bandwidth rows): 8 KiB per block copied a 1 MiB round in 6.70 µs against 7.49 µs at 32 KiB (128 blocks
     * against 32 of 132 SMs), while from 16 MiB up both reach the cap of two blocks per SM, which beat eight
     * per SM there (2,151 against 1,863 GB/s at 16 MiB).
     */
    public static final long CONSUME_BYTES_PER_BLOCK = 8 * 1024;
}
