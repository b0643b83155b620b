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
 *   line 1: descriptor of the last consume step (written by the consume step)
 *   128            136            144            152            160            168         256
 *   +--------------+--------------+--------------+--------------+--------------+-----------+
 *   | ready_from   | ready_to     | valid_from   | observed_pub | round        | host_round|
 *   +--------------+--------------+--------------+--------------+--------------+-----------+
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

    /** Size of the allocation: two 128-byte lines. */
    public static final int BYTES = 256;

    private ConsumerBlock() {
    }
}
