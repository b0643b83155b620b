package io.seqlink.layout;

/**
 * Layout of a consumer's block: two 128-byte lines. The device copy lives on the consumer's device;
 * a mirror of the same layout lives in pinned host memory so the host follows progress without
 * reading device memory.
 *
 * <pre>
 *   line 0: cursor (written by the consumer's ack and consume steps)
 *   0              8              16             24             32                    128
 *   +--------------+--------------+--------------+--------------+---------------------+
 *   | consumed_seq | reads        | empty_polls  | laps         | reserved / padding  |
 *   +--------------+--------------+--------------+--------------+---------------------+
 *
 *   line 1: descriptor of the last consume step (written by the consume step), then reports
 *   128            136            144            152            160            168
 *   +--------------+--------------+--------------+--------------+--------------+--------------+
 *   | ready_from   | ready_to     | valid_from   | observed_pub | round        | host_round   |
 *   +--------------+--------------+--------------+--------------+--------------+--------------+
 *   176            184            192            200                                        256
 *   +--------------+--------------+--------------+------------------------------------------+
 *   | short_rounds | arm_cancel   | protocol_err | reserved / padding                       |
 *   +--------------+--------------+--------------+------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code consumed_seq} (mirror only): last acknowledged sequence; the producer's backpressure reads it.</li>
 *   <li>{@code reads}: consume steps that found new frames; {@code empty_polls}: steps that found none
 *       (a rising count means over-eager launching); {@code laps}: frames skipped because the
 *       producer lapped the consumer ({@code latest} delivery only).</li>
 *   <li>{@code ready_from .. ready_to}: the range the last step took; frames below {@code valid_from}
 *       were overwritten while being read and must be skipped; {@code observed_pub} is the
 *       {@code publish_seq} the step's acquire read returned; {@code round} (mirror only) is the launcher's round
 *       number, written last with release, so a host that acquires it sees the rest of the line (and
 *       what the step's acquire read made visible: a host-memory replica's frames). A device listener's
 *       kernels read the device block's descriptor in stream order.</li>
 *   <li>{@code host_round} (mirror only): the last round whose frames reached host memory, written
 *       by the stream after the copy to host, so a host listener knows its frames are there.</li>
 *   <li>{@code short_rounds}: ordinary (not armed) rounds that took fewer frames than the launcher asked for.
 *       The launcher asks only for frames it saw in the producer's mirror, which the publish stores after its
 *       fences, so this stays 0; the runtime fails the consumer when it is not.</li>
 *   <li>{@code arm_cancel} (written by the HOST only): the highest armed round number the host cancelled. The
 *       mirror's word is the host's record (raised by compare-and-set); the device block's is what kernels read,
 *       stored from the mirror's by {@code Device.storeWord} before the cancel's doorbell raise. An armed round
 *       {@code r} reads the block's word after its acquire read of {@code publish_seq} and takes nothing when it is
 *       {@code >= r}.</li>
 *   <li>{@code protocol_err} (mirror only): 0, or {@code site << 56 | round}: the round whose round kernel
 *       ({@code take_round}, {@code end_round}) or in-kernel acknowledgement ({@code acknowledge_taken_at_end})
 *       found its grid counter left by another launch (a block returned without calling it) and failed, taking
 *       and acknowledging nothing; {@code site} is one of the {@code PROTOCOL_SITE_*} values. The runtime fails
 *       the consumer when it is not 0.</li>
 * </ul>
 */
public final class ConsumerBlock {

    public static final int CONSUMED_SEQ = 0;
    public static final int READS = 8;
    public static final int EMPTY_POLLS = 16;
    public static final int LAPS = 24;

    public static final int READY_FROM = 128;
    public static final int READY_TO = 136;
    public static final int VALID_FROM = 144;
    public static final int OBSERVED_PUBLISH = 152;
    public static final int ROUND = 160;
    public static final int HOST_ROUND = 168;
    public static final int SHORT_ROUNDS = 176;
    public static final int ARM_CANCEL = 184;
    public static final int PROTOCOL_ERROR = 192;

    /** {@link #PROTOCOL_ERROR}'s site field: the bits above it, its round below. */
    public static final int PROTOCOL_SITE_SHIFT = 56;
    /** {@link #PROTOCOL_ERROR}'s site: a round kernel's {@code take_round} (the grid's agreement). */
    public static final int PROTOCOL_SITE_TAKE_ROUND = 1;
    /** {@link #PROTOCOL_ERROR}'s site: a round kernel's {@code end_round}. */
    public static final int PROTOCOL_SITE_END_ROUND = 2;
    /** {@link #PROTOCOL_ERROR}'s site: a device listener's {@code acknowledge_taken_at_end}. */
    public static final int PROTOCOL_SITE_ACKNOWLEDGE_TAKEN = 3;

    /** Size of the allocation: two 128-byte lines. */
    public static final int BYTES = 256;

    private ConsumerBlock() {
    }
}
