package io.seqlink.channel.shared;

import io.seqlink.channel.AttachedConsumer;
import io.seqlink.layout.ConsumerBlock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The seats of an exported channel: which consumer process holds which, from its attach to its drop, and the
 * slowest acknowledgement over the live ones, which the producer gates on.
 *
 * <p>A seat is live while its {@code live} word holds its attachment's epoch. It becomes live in three steps
 * ({@link #take}): its acknowledgement set to the frames published so far, then the live word, then the published
 * count read again as the start and the acknowledgement raised to it, so a claim that did not see the seat can only
 * overwrite frames up to the start ({@code docs/cross-process.md} gives the argument). A drop is one compare-and-set of
 * the live word back to 0, so a seat is dropped once, whoever finds it dead; the producer rewrites a slot the seat has
 * not acknowledged only after its gating read the live word as something else, so after the drop (the attached
 * consumer checks its seat after its reads for that: {@link AttachmentLease}). The channel's close drops nothing: it ends
 * the connections ({@link #closeAll}).
 *
 * <p>{@link #take} runs on the attach thread only; {@link #drop}, {@link #closeAll}, {@link #slowestAcknowledged} and
 * the getters on any thread.
 */
final class ExportSeats {

    private static final Logger log = LoggerFactory.getLogger(ExportSeats.class);

    private final String channel;
    private final SharedRegion region;
    private final SharedLayout layout;
    private final LongSupplier published;
    /** The connection of each live seat; {@code null} for a free one. Written by take and drop under this lock. */
    private final @Nullable SocketChannel[] connections;
    /** Whether a seat is taken (from take to drop). Under this lock. */
    private final boolean[] reserved;
    /** Set by {@link #closeAll}: no seat is dropped any more. */
    private volatile boolean closed;

    ExportSeats(String channel, SharedRegion region, SharedLayout layout, LongSupplier published) {
        this.channel = channel;
        this.region = region;
        this.layout = layout;
        this.published = published;
        this.connections = new SocketChannel[layout.seats()];
        this.reserved = new boolean[layout.seats()];
    }

    int count() {
        return layout.seats();
    }

    /** A free seat's index, or -1 when every seat is taken. */
    synchronized int free() {
        for (int i = 0; i < reserved.length; i++) {
            if (!reserved[i]) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Makes seat {@code seat} (from {@link #free}) live for {@code epoch}; returns the sequence its consumer starts after.
     * The seat is reserved from here; {@link #bind} gives it its connection.
     */
    synchronized long take(int seat, long epoch) {
        long mirror = layout.mirror(seat);
        long line = layout.seatLine(seat);
        for (int w = 8; w < ConsumerBlock.BYTES; w += 8) {
            region.setRelease(mirror + w, 0); // the last holder's round words, descriptors and reports
        }
        region.setRelease(line + SharedLayout.S_HEARTBEAT, 0);
        region.setRelease(line + SharedLayout.S_PID, 0);
        region.setRelease(mirror + ConsumerBlock.CONSUMED_SEQ, published.getAsLong());
        region.setVolatile(line + SharedLayout.S_LIVE, epoch);
        long start = published.getAsLong();
        region.setVolatile(mirror + ConsumerBlock.CONSUMED_SEQ, start);
        region.setRelease(line + SharedLayout.S_START, start);
        reserved[seat] = true;
        return start;
    }

    /** Gives live seat {@code seat} of {@code epoch} its connection (non-blocking); false when it was dropped meanwhile. */
    synchronized boolean bind(int seat, long epoch, SocketChannel connection) {
        if (liveEpoch(seat) != epoch) {
            return false;
        }
        connections[seat] = connection;
        return true;
    }

    /**
     * Drops seat {@code seat} if it still holds {@code epoch}: it no longer gates, and its connection is closed. Nothing
     * is dropped once the seats are closed ({@link #closeAll}).
     */
    boolean drop(int seat, long epoch, String why) {
        long line = layout.seatLine(seat);
        if (epoch == 0 || closed || !region.compareAndSet(line + SharedLayout.S_LIVE, epoch, 0)) {
            return false;
        }
        SocketChannel c;
        synchronized (this) {
            c = connections[seat];
            connections[seat] = null;
            reserved[seat] = false;
        }
        log.warn("seqlink channel '{}': consumer process {} (seat {}, epoch {}) dropped: {}; it no longer holds the producer back",
                channel, region.getAcquire(line + SharedLayout.S_PID), seat, epoch, why);
        closeQuietly(c);
        return true;
    }

    /** The epoch seat {@code seat} is live for, 0 when free. */
    long liveEpoch(int seat) {
        return region.getVolatile(layout.seatLine(seat) + SharedLayout.S_LIVE);
    }

    /** The heartbeat seat {@code seat}'s consumer last raised. */
    long heartbeat(int seat) {
        return region.getAcquire(layout.seatLine(seat) + SharedLayout.S_HEARTBEAT);
    }

    /** What seat {@code seat}'s consumer acknowledged. */
    long acknowledged(int seat) {
        return region.getAcquire(layout.mirror(seat) + ConsumerBlock.CONSUMED_SEQ);
    }

    /**
     * Whether seat {@code seat}'s connection ended (the consumer process exited: the kernel closes its socket). A read
     * of what is there without waiting; anything the consumer sends after the handshake is ignored.
     */
    boolean disconnected(int seat, ByteBuffer scratch) {
        SocketChannel c;
        synchronized (this) {
            c = connections[seat];
        }
        if (c == null) {
            return false;
        }
        try {
            scratch.clear();
            return c.read(scratch) < 0;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * The slowest acknowledgement over the live seats, or the frames published so far when none is live (so a seat
     * that becomes live later is never behind what the producer's gating cached). Any thread.
     */
    long slowestAcknowledged() {
        long slowest = Long.MAX_VALUE;
        for (int i = 0; i < connections.length; i++) {
            if (liveEpoch(i) != 0) {
                slowest = Math.min(slowest, acknowledged(i));
            }
        }
        return slowest == Long.MAX_VALUE ? published.getAsLong() : slowest;
    }

    /** How long a seat's heartbeat has stood still, as the liveness thread saw it: (seat, epoch, now) to nanoseconds. */
    interface HeartbeatAges {
        long ageNanos(int seat, long epoch, long now);
    }

    /** The live seats as their consumers' words show them now, their lag against the frames published so far. */
    List<AttachedConsumer> attached(HeartbeatAges ages) {
        List<AttachedConsumer> out = new ArrayList<>();
        long now = System.nanoTime();
        for (int i = 0; i < reserved.length; i++) {
            long epoch = liveEpoch(i);
            if (epoch != 0) {
                long line = layout.seatLine(i);
                long acked = acknowledged(i);
                long lag = Math.max(0, published.getAsLong() - acked);
                out.add(new AttachedConsumer(i, epoch, region.getAcquire(line + SharedLayout.S_PID),
                        region.getAcquire(line + SharedLayout.S_START), acked, lag, heartbeat(i), ages.ageNanos(i, epoch, now)));
            }
        }
        return List.copyOf(out);
    }

    /** Seats live now. */
    int live() {
        int n = 0;
        for (int i = 0; i < connections.length; i++) {
            if (liveEpoch(i) != 0) {
                n++;
            }
        }
        return n;
    }

    /**
     * The channel closes: every connection is closed, and no seat is dropped from here on. The live seats keep their
     * epochs: the producer writes nothing into the region after it closed, so a consumer still reading a round finds its
     * seat held and its frames intact, where a drop would make it report them possibly rewritten; the closed region state
     * and the connection's end tell it the producer is gone. Any thread, once the heartbeat thread was told to end
     * (a look it was still making drops nothing).
     */
    void closeAll() {
        closed = true;
        for (int i = 0; i < connections.length; i++) {
            SocketChannel c;
            synchronized (this) {
                c = connections[i];
                connections[i] = null;
                reserved[i] = false;
            }
            if (c != null) {
                log.info("seqlink channel '{}': the connection of consumer process {} (seat {}, epoch {}) closed: the producer "
                        + "closed the channel", channel, region.getAcquire(layout.seatLine(i) + SharedLayout.S_PID), i, liveEpoch(i));
                closeQuietly(c);
            }
        }
    }

    static void closeQuietly(java.io.@Nullable Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException e) {
                // closing a socket: nothing left to do
            }
        }
    }
}
