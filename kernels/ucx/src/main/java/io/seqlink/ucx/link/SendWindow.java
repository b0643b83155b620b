package io.seqlink.ucx.link;

import io.seqlink.channel.Frame;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;

/**
 * The sender's ring of registered slots between the local channel and the link. The staging thread
 * (the bridge's listener on the local consumer port) copies each frame into the next slot and
 * releases {@link #staged()}; the link thread sends staged slots to the receiver and moves
 * {@link #credited()} from the receiver's STATUS messages. A slot is reused only when the receiver has
 * confirmed the frame it held, so nothing in the window is ever overwritten before it is safe.
 *
 * <p>Threads: {@link #stage} belongs to one staging thread at a time (the port's poller); the
 * credit and close methods belong to the link thread; the getters are safe from any thread.
 */
public final class SendWindow {

    /** What {@link #stage} returns when the bridge closed while it waited. */
    public static final long CLOSED = -1;

    private final RegisteredRegion region;
    private final int window;
    private final long stride;
    private final long slotBytes;
    private final ByteBuffer view;
    private volatile long staged;
    private volatile long credited;
    private volatile boolean closed;
    private volatile boolean waiting;

    public SendWindow(RegisteredRegion region, int window, long slotBytes) {
        this.region = region;
        this.window = window;
        this.slotBytes = slotBytes;
        this.stride = LinkLayout.strideFor(slotBytes);
        this.view = region.view();
    }

    public RegisteredRegion region() {
        return region;
    }

    public int window() {
        return window;
    }

    public long stride() {
        return stride;
    }

    public long slotBytes() {
        return slotBytes;
    }

    public long staged() {
        return staged;
    }

    public long credited() {
        return credited;
    }

    /** Whether the staging thread is waiting for a credit now (the window is full). */
    public boolean waitingForCredit() {
        return waiting;
    }

    public long slotOffset(long sequence) {
        return LinkLayout.slotOffset(sequence, window, stride);
    }

    /** Bytes to put for a staged {@code sequence}: its header and payload. */
    public long wireBytes(long sequence) {
        return LinkLayout.HEADER + view.getLong((int) (slotOffset(sequence) + LinkLayout.LENGTH));
    }

    /**
     * Copies {@code frame} into the next slot once the window has room, and returns its link sequence;
     * {@link #CLOSED} if the bridge closed first. Waits as long as the receiver gives no credit (that is
     * the lossless backpressure: the local channel then backs up and its producer gets
     * {@code BACK_PRESSURED}); returns promptly on interrupt, keeping the flag, with {@link #CLOSED}.
     */
    public long stage(Frame frame) {
        long s = staged + 1;
        if (s - credited > window) {
            waiting = true;
            try {
                long park = 1_000;
                while (s - credited > window) {
                    if (closed || Thread.currentThread().isInterrupted()) {
                        return CLOSED;
                    }
                    LockSupport.parkNanos(park);
                    park = Math.min(park * 2, 200_000);
                }
            } finally {
                waiting = false;
            }
        }
        if (closed) {
            return CLOSED;
        }
        int off = (int) slotOffset(s);
        int length = frame.length();
        if (length > slotBytes) {
            throw new IllegalArgumentException("frame " + frame.sequence() + " of channel '" + frame.channel() + "' has "
                    + length + " B, more than the bridge's slot of " + slotBytes + " B");
        }
        view.putLong(off + LinkLayout.STAMP, s);
        view.putLong(off + LinkLayout.LENGTH, length);
        view.putLong(off + LinkLayout.SOURCE_SEQ, frame.sequence());
        view.put(off + LinkLayout.HEADER, frame.payload(), 0, length);
        staged = s; // volatile write: the slot's bytes happen-before the link thread's send of it
        return s;
    }

    /** Link thread: the receiver confirmed up to {@code sequence}. */
    void credit(long sequence) {
        if (sequence > credited) {
            credited = Math.min(sequence, staged);
        }
    }

    /** Stops staging: a waiting or later {@link #stage} returns {@link #CLOSED}. */
    public void close() {
        closed = true;
    }

    public boolean closed() {
        return closed;
    }
}
