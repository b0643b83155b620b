package io.seqlink.channel.shared;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The producer's heartbeat thread: every period it raises the region's producer heartbeat, drops each seat whose
 * connection ended or whose heartbeat has not moved for the stall timeout, and cuts off an overdue handshake. Its
 * own thread only; {@link #close} and {@link #heartbeatAgeNanos} from any.
 */
final class ExportLiveness implements Runnable {

    private final SharedRegion region;
    private final ExportSeats seats;
    private final AttachServer server;
    private final long periodNanos;
    private final long stallNanos;
    /** Per seat: the epoch watched, the heartbeat last seen and when it last moved. This thread's only. */
    private final long[] watchedEpoch;
    private final long[] lastBeat;
    private final long[] movedAt;
    /** Per seat, what the reports read: the epoch last watched and when its heartbeat last moved. Written by this thread only. */
    private final AtomicLongArray seenEpoch;
    private final AtomicLongArray seenMovedAt;
    private final ByteBuffer scratch = ByteBuffer.allocate(64);
    private volatile boolean closed;

    ExportLiveness(SharedRegion region, ExportSeats seats, AttachServer server, long periodNanos, long stallNanos) {
        this.region = region;
        this.seats = seats;
        this.server = server;
        this.periodNanos = periodNanos;
        this.stallNanos = stallNanos;
        this.watchedEpoch = new long[seats.count()];
        this.lastBeat = new long[seats.count()];
        this.movedAt = new long[seats.count()];
        this.seenEpoch = new AtomicLongArray(seats.count());
        this.seenMovedAt = new AtomicLongArray(seats.count());
    }

    /**
     * How long seat {@code seat}'s heartbeat, for {@code epoch}, has not moved at {@code now} as this thread last saw it
     * (to within one period); 0 when this thread has not looked at that epoch yet. Any thread; never waits.
     */
    long heartbeatAgeNanos(int seat, long epoch, long now) {
        long moved = seenMovedAt.get(seat);
        if (seenEpoch.get(seat) != epoch) {
            return 0;
        }
        return Math.max(0, now - moved);
    }

    @Override
    public void run() {
        while (!closed) {
            region.getAndAdd(SharedLayout.L_HEARTBEAT, 1);
            long now = System.nanoTime();
            server.closeIfOverdue(now);
            for (int i = 0; i < watchedEpoch.length; i++) {
                look(i, now);
            }
            LockSupport.parkNanos(this, periodNanos);
        }
    }

    private void look(int seat, long now) {
        long epoch = seats.liveEpoch(seat);
        if (epoch == 0) {
            watchedEpoch[seat] = 0;
            return;
        }
        long beat = seats.heartbeat(seat);
        if (epoch != watchedEpoch[seat] || beat != lastBeat[seat]) {
            watchedEpoch[seat] = epoch;
            lastBeat[seat] = beat;
            movedAt[seat] = now;
            seenMovedAt.set(seat, now); // before the epoch: a reader that sees the epoch sees this time or a later one
            seenEpoch.set(seat, epoch);
        }
        if (seats.disconnected(seat, scratch)) {
            seats.drop(seat, epoch, "its connection ended (the process exited or detached)");
        } else if (now - movedAt[seat] >= stallNanos) {
            seats.drop(seat, epoch, "its heartbeat has not moved for " + TimeUnit.NANOSECONDS.toMillis(now - movedAt[seat])
                    + " ms (stall timeout " + TimeUnit.NANOSECONDS.toMillis(stallNanos) + " ms)");
        }
    }

    void close() {
        closed = true;
    }
}
