package io.seqlink.channel.shared;

import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;

/**
 * The shared region's layout, every part on 128-byte lines of its own (offsets in bytes from the region's start):
 *
 * <pre>
 *   0    header    magic, protocol and layout versions, geometry, seats, region size, producer pid, ready
 *   128  liveness  producer heartbeat, state (open, closed), the last epoch given
 *   256  control   control block layout, publish_seq at 0: the channel's host mirror (its ring is the region's),
 *                  or a replica the publish step pushes into (publish_seq, writer_busy)
 *   384  seats     seats x 384 B: the consumer's host mirror (ConsumerBlock layout, consumed_seq at 0), then the
 *                  seat line: live epoch (0: free), heartbeat, pid, start
 *   ...  times     slots words, rounded up to a line: each slot's publish time (PublishTimeRecord, spread over lines)
 *   ...  ring      slots x stride: the channel's ring itself, or a replica the publish step pushes into; either way
 *                  each slot is the ring's (SlotHeader: stamp, length, then the payload)
 * </pre>
 *
 * Immutable.
 */
record SharedLayout(RingGeometry geometry, int maxBatch, int seats) {

    /** "SQLKSHM1": the first word of every region. */
    static final long MAGIC = 0x53514C4B53484D31L;
    /** The attach protocol's version, also in the header. */
    static final int PROTOCOL_VERSION = 1;
    /** This layout's version: any change of an offset below changes it. */
    static final int LAYOUT_VERSION = 2;

    static final int H_MAGIC = 0;
    static final int H_PROTOCOL = 8;
    static final int H_LAYOUT = 16;
    static final int H_SLOTS = 24;
    static final int H_SLOT_BYTES = 32;
    static final int H_STRIDE = 40;
    static final int H_MAX_BATCH = 48;
    static final int H_SEATS = 56;
    static final int H_REGION_BYTES = 64;
    static final int H_PRODUCER_PID = 72;
    /** Written last, with release: 1 once the header is complete. */
    static final int H_READY = 80;

    static final int L_HEARTBEAT = 128;
    static final int L_STATE = 136;
    static final int L_EPOCH = 144;
    static final long STATE_OPEN = 1;
    static final long STATE_CLOSED = 2;

    static final int CONTROL = 256;
    static final int SEATS = CONTROL + ControlBlock.BYTES;
    static final int SEAT_BYTES = ConsumerBlock.BYTES + 128;
    /** Seat line words, from the seat line's start. */
    static final int S_LIVE = 0;
    static final int S_HEARTBEAT = 8;
    static final int S_PID = 16;
    static final int S_START = 24;

    /** The largest region: one mapping, indexed by int. */
    static final long MAX_REGION_BYTES = Integer.MAX_VALUE & -128L;

    /** Offset of seat {@code i}'s mirror. */
    long mirror(int seat) {
        return SEATS + (long) seat * SEAT_BYTES;
    }

    /** Offset of seat {@code i}'s seat line. */
    long seatLine(int seat) {
        return mirror(seat) + ConsumerBlock.BYTES;
    }

    /** Offset of the publish times. */
    long times() {
        return SEATS + (long) seats * SEAT_BYTES;
    }

    /** Offset of the ring. */
    long ring() {
        return times() + ((8L * geometry.slots() + 127) & -128L);
    }

    /** Bytes before the ring: header, liveness, control, seats and publish times. */
    long wordsBytes() {
        return ring();
    }

    long regionBytes() {
        return ring() + geometry.ringBytes();
    }
}
