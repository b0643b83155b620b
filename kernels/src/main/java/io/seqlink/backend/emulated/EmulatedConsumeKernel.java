package io.seqlink.backend.emulated;

import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * The consume step in Java: one acquire read of {@code publish_seq} (then, for an armed round, one acquire read
 * of the host's cancel word), the copy of the range into the local ring, then validation after an acquire
 * fence, as the CUDA kernel does it.
 */
final class EmulatedConsumeKernel implements EmulatedSteps, ConsumeKernel, EmulatedStream.Task {

    private final EmulatedStream stream;
    private final EmulatedDevice device;
    private final EmulatedMemory control;
    private final EmulatedMemory ring;
    /** The local ring to copy into; {@code null} in direct mode. */
    private final @Nullable EmulatedMemory localRing;
    private final EmulatedMemory block;
    private final EmulatedMappedBuffer mirror;
    private final RingGeometry geometry;
    private final boolean lapping;

    EmulatedConsumeKernel(EmulatedStream stream, ConsumeBinding b) {
        this.stream = stream;
        this.device = stream.emulatedDevice();
        this.control = device.own(b.control());
        this.ring = device.own(b.ring());
        this.localRing = b.localRing() == null ? null : device.own(b.localRing());
        this.block = device.own(b.block());
        this.mirror = (EmulatedMappedBuffer) device.own(b.mirror());
        this.geometry = b.geometry();
        this.lapping = b.lapping();
    }

    EmulatedStream stream() {
        return stream;
    }

    @Override
    public EmulatedMemory ring() {
        return ring;
    }

    @Override
    public RingGeometry geometry() {
        return geometry;
    }

    /** {@code seqlink::device::acquire_published}: the one acquire read of the source's {@code publish_seq}. */
    long acquirePublished(String kernel) {
        device.access(control, kernel);
        return control.getAcquireWord(ControlBlock.PUBLISH_SEQ);
    }

    /** {@code seqlink::device::acknowledge}: a release store of {@code consumed_seq} into the host mirror. */
    void acknowledge(long sequence) {
        mirror.setReleaseWord(ConsumerBlock.CONSUMED_SEQ, sequence);
    }

    /**
     * {@code seqlink::device::detail::round_bound}: the bound round {@code round} may take frames to, after the
     * acquire read that returned {@code published}: {@code from - 1} (nothing) when it is armed, would take
     * something, and the host cancelled it (the device block's {@code ARM_CANCEL}, read with acquire order after the
     * acquire of {@code publish_seq}, is {@code >= round}); {@code published} otherwise.
     */
    long roundBound(long from, long published, long round, boolean armed) {
        if (armed && published >= from && block.getAcquireWord(ConsumerBlock.ARM_CANCEL) >= round) {
            return from - 1;
        }
        return published;
    }

    @Override
    public void enqueue(long from, long to, long round) {
        stream.enqueue(this, null, null, null, from, to, round, 0, 0, 0);
    }

    @Override
    public void enqueueArmed(long from, long to, long round) {
        stream.enqueue(this, null, null, null, from, to, round, 1, 0, 0);
    }

    @Override
    public void run(EmulatedStream.Command c) {
        device.beforeLaunch("seqlink_consume");
        long from = c.a;
        boolean armed = c.d != 0;
        long published = roundBound(from, acquirePublished("seqlink_consume"), c.c, armed); // ld.acquire.sys, once per round
        long to = Math.min(c.b, published);
        EmulatedMemory source = ring;
        if (to >= from && localRing != null) {
            device.access(ring, "seqlink_consume");
            for (long s = from; s <= to; s++) {
                long offset = geometry.offsetOf(s);
                long length = Math.min(Math.max(ring.getPlainWord(offset + SlotHeader.LENGTH), 0), geometry.slotBytes());
                EmulatedDevice.rawCopy(ring, offset, localRing, offset, SlotHeader.BYTES + length);
            }
            source = localRing;
        }
        finishRound(from, to, published, c.c, source, false, !armed && to < c.b);
    }

    /**
     * {@code seqlink::device::end_round(handles, taken)} for a round kernel's twin, as it returns: the end of the
     * round it took ({@code from..end} of the {@code from..to} it was given, after its one acquire read, which gave
     * the bound {@code published}) over the frames in place, with its acknowledgement; an ordinary round that ends
     * short of {@code to} counts a short round.
     */
    void endRound(long from, long end, long to, long published, long round, boolean armed) {
        finishRound(from, end, published, round, ring, true, !armed && end < to);
    }

    /**
     * {@code seqlink::device::detail::finish_consume_round}: what a consume round does after its reads of
     * {@code from..to} (none when {@code to < from}) at {@code source}: the lapping bound and the stamp check,
     * counters ({@code shortRound}: one more short round), the descriptor into the device block and the host
     * mirror, with {@code acknowledges} the acknowledgement of {@code to} (release), and the mirror's round last
     * (release).
     */
    private void finishRound(long from, long to, long published, long round, EmulatedMemory source, boolean acknowledges,
            boolean shortRound) {
        if (shortRound) { // never expected: the launcher asks only for frames the producer's mirror showed
            long shorts = block.getPlainWord(ConsumerBlock.SHORT_ROUNDS) + 1;
            block.setPlainWord(ConsumerBlock.SHORT_ROUNDS, shorts);
            mirror.setPlainWord(ConsumerBlock.SHORT_ROUNDS, shorts);
        }
        long validFrom = from;
        if (to < from) {
            block.setPlainWord(ConsumerBlock.EMPTY_POLLS, block.getPlainWord(ConsumerBlock.EMPTY_POLLS) + 1);
        } else {
            block.setPlainWord(ConsumerBlock.READS, block.getPlainWord(ConsumerBlock.READS) + 1);
            if (lapping) {
                VarHandle.acquireFence();                                          // each thread's fence.acq_rel.sys: reads above stay above
                long writerBusy = control.getAcquireWord(ControlBlock.WRITER_BUSY); // ld.acquire.sys
                validFrom = Math.max(from, writerBusy - geometry.slots() + 1);
            }
            for (long s = validFrom; s <= to; s++) {
                if (source.getPlainWord(geometry.offsetOf(s) + SlotHeader.STAMP) != s) {
                    validFrom = s + 1; // never expected above writer_busy's bound; kept as a second check
                }
            }
            validFrom = Math.min(validFrom, to + 1);
            if (validFrom > from) {
                block.setPlainWord(ConsumerBlock.LAPS, block.getPlainWord(ConsumerBlock.LAPS) + (validFrom - from));
            }
        }
        block.setPlainWord(ConsumerBlock.READY_FROM, from);
        block.setPlainWord(ConsumerBlock.READY_TO, to);
        block.setPlainWord(ConsumerBlock.VALID_FROM, validFrom);
        block.setPlainWord(ConsumerBlock.OBSERVED_PUBLISH, published);
        // Posted writes of the counters and the descriptor to the host mirror; round last, release.
        mirror.setPlainWord(ConsumerBlock.READS, block.getPlainWord(ConsumerBlock.READS));
        mirror.setPlainWord(ConsumerBlock.EMPTY_POLLS, block.getPlainWord(ConsumerBlock.EMPTY_POLLS));
        mirror.setPlainWord(ConsumerBlock.LAPS, block.getPlainWord(ConsumerBlock.LAPS));
        mirror.setPlainWord(ConsumerBlock.READY_FROM, from);
        mirror.setPlainWord(ConsumerBlock.READY_TO, to);
        mirror.setPlainWord(ConsumerBlock.VALID_FROM, validFrom);
        mirror.setPlainWord(ConsumerBlock.OBSERVED_PUBLISH, published);
        if (acknowledges && to >= from) {
            acknowledge(to);                                                       // before the round: a host that sees it sees the ack
        }
        mirror.setReleaseWord(ConsumerBlock.ROUND, round);
    }
}
