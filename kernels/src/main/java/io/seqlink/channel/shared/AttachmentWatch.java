package io.seqlink.channel.shared;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A consumer process's heartbeat thread for one attachment: every period it raises its seat's heartbeat, then looks
 * for the producer's end: the connection ended, the region says closed, this seat no longer holds this epoch (the
 * producer dropped it), or the producer's heartbeat has not moved for the stall timeout. The first it finds goes to
 * {@code onGone}, once, and the thread ends. Its own thread only; {@link #close} from any.
 */
final class AttachmentWatch implements Runnable {

    private final SharedRegion region;
    private final SocketChannel connection;
    private final long seatLine;
    private final long epoch;
    private final long periodNanos;
    private final long stallNanos;
    private final Consumer<String> onGone;
    private final ByteBuffer scratch = ByteBuffer.allocate(64);
    private volatile boolean closed;

    AttachmentWatch(SharedRegion region, SocketChannel connection, long seatLine, long epoch, long periodNanos, long stallNanos,
            Consumer<String> onGone) {
        this.region = region;
        this.connection = connection;
        this.seatLine = seatLine;
        this.epoch = epoch;
        this.periodNanos = periodNanos;
        this.stallNanos = stallNanos;
        this.onGone = onGone;
    }

    @Override
    public void run() {
        long lastBeat = region.getAcquire(SharedLayout.L_HEARTBEAT);
        long movedAt = System.nanoTime();
        while (!closed) {
            region.getAndAdd(seatLine + SharedLayout.S_HEARTBEAT, 1);
            long now = System.nanoTime();
            String gone = null;
            long beat = region.getAcquire(SharedLayout.L_HEARTBEAT);
            if (beat != lastBeat) {
                lastBeat = beat;
                movedAt = now;
            }
            boolean ended = ended(); // first: a producer closes or drops before it ends the connection, so the reason is read after
            if (region.getAcquire(SharedLayout.L_STATE) == SharedLayout.STATE_CLOSED) {
                gone = "the producer closed the channel";
            } else if (region.getVolatile(seatLine + SharedLayout.S_LIVE) != epoch) {
                gone = "the producer dropped this consumer (its connection ended, or no heartbeat within its stall timeout)";
            } else if (ended) {
                gone = "the connection to the producer ended (its process exited)";
            } else if (now - movedAt >= stallNanos) {
                gone = "the producer's heartbeat has not moved for " + TimeUnit.NANOSECONDS.toMillis(now - movedAt)
                        + " ms (stall timeout " + TimeUnit.NANOSECONDS.toMillis(stallNanos) + " ms)";
            }
            if (gone != null && !closed) {
                onGone.accept(gone);
                return;
            }
            LockSupport.parkNanos(this, periodNanos);
        }
    }

    /** Whether the connection ended: a read of what is there (the connection is non-blocking), never a wait. */
    private boolean ended() {
        try {
            scratch.clear();
            return connection.read(scratch) < 0;
        } catch (IOException e) {
            return true;
        }
    }

    void close() {
        closed = true;
    }
}
