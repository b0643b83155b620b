package io.seqlink.channel.shared;

import io.seqlink.channel.consumer.SeatLease;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * An attachment's seat as its port checks it ({@link SeatLease}): live while the seat line's {@code live} word holds
 * the attachment's epoch, which only the producer changes, by the compare-and-set of its drop ({@link ExportSeats#drop})
 * or a later attach's {@link ExportSeats#take} of the freed seat (a new, higher epoch). A report of the seat lost goes to
 * {@code onLost} with the rule and the fix (the attachment's log line names the seat and the epoch). Immutable; any thread.
 */
final class AttachmentLease implements SeatLease {

    private final SharedRegion region;
    private final long live;
    private final long epoch;
    private final Duration stallTimeout;
    private final Consumer<String> onLost;

    AttachmentLease(SharedRegion region, SharedLayout layout, int seat, long epoch, Duration stallTimeout, Consumer<String> onLost) {
        this.region = region;
        this.live = layout.seatLine(seat) + SharedLayout.S_LIVE;
        this.epoch = epoch;
        this.stallTimeout = stallTimeout;
        this.onLost = onLost;
    }

    /**
     * The fence keeps every load the thread made before (the round's slot reads) from being performed after the load of
     * the live word; the load's acquire keeps what the thread does next (the acknowledgement's store) after it.
     */
    @Override
    public boolean held() {
        VarHandle.acquireFence();
        return region.getAcquire(live) == epoch;
    }

    @Override
    public void lost(String why) {
        onLost.accept(why + ". The producer drops a consumer whose process stops for its stall timeout ("
                + stallTimeout.toMillis() + " ms) and may then rewrite the slots it was reading; keep the consumer process from "
                + "stopping that long, or raise the producer channel's stallTimeout, and attach again");
    }
}
