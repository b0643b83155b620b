package io.seqlink.ucx.link;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpAmData;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucs.UcsConstants;

/**
 * The receiver's landing ring and what it knows of each slot: the link sequence complete there, or
 * the one a rendezvous receive is still filling. Bytes reach a slot only through this class: copied
 * from an eager message inside its receive callback, or received by a rendezvous receive it started;
 * a slot counts as landed only when that copy or receive is done and the slot's header says it holds
 * that sequence. Owned by the link thread.
 *
 * <pre>
 *   slot i:  landed[i] = s      frame s is complete in slot i
 *            receiving[i] = s   a rendezvous receive is putting frame s there (receives[i] on the batch's first slot)
 * </pre>
 */
final class LandingRing {

    /** What {@link #poll(long)} finds for a frame. */
    static final int LANDED = 1;
    static final int WAITING = 0;
    static final int FAILED = -1;

    private final RegisteredRegion region;
    private final ByteBuffer view;
    private final int window;
    private final long maxPayload;
    private final long[] landed;
    private final long[] receiving;
    private final @Nullable UcpRequest[] receives;
    private final long[] batchLast;
    private final long[] batchBytes;
    private int pendingReceives;
    private long stride;
    private @Nullable String problem;

    LandingRing(RegisteredRegion region, int window, long maxPayload) {
        this.region = region;
        this.view = region.view();
        this.window = window;
        this.maxPayload = maxPayload;
        this.landed = new long[window];
        this.receiving = new long[window];
        this.receives = new UcpRequest[window];
        this.batchLast = new long[window];
        this.batchBytes = new long[window];
        this.stride = LinkLayout.strideFor(maxPayload);
    }

    int window() {
        return window;
    }

    long stride() {
        return stride;
    }

    /** At a handshake, with no receive pending: slots of the sender's {@code senderStride}; nothing landed. */
    void reset(long senderStride) {
        if (pendingReceives > 0) {
            throw new IllegalStateException("the landing ring has " + pendingReceives + " receive(s) pending");
        }
        if (senderStride > LinkLayout.strideFor(maxPayload)) {
            throw new IllegalArgumentException("a sender stride of " + senderStride + " B does not fit this ring");
        }
        stride = senderStride;
        Arrays.fill(landed, 0);
        Arrays.fill(receiving, 0);
    }

    /**
     * Whether batch {@code first..last} of {@code bytes} may land now, given that every frame up to
     * {@code received} was published: null if so, else what is wrong (a protocol error).
     */
    @Nullable String admissible(long first, long last, long bytes, long received) {
        if (first <= received || last < first || last > received + window
                || LinkLayout.lastBeforeWrap(first, window) < last) {
            return "batch " + first + ".." + last + " does not fit the landing ring (published up to " + received + ", "
                    + window + " slots)";
        }
        if (bytes < (last - first) * stride + LinkLayout.HEADER || bytes > (last - first + 1) * stride) {
            return "batch " + first + ".." + last + " claims " + bytes + " B for slots of " + stride + " B";
        }
        for (long s = first; s <= last; s++) {
            int i = index(s);
            if (receiving[i] != 0 || landed[i] >= s) {
                return "frame " + s + " arrived twice";
            }
        }
        return null;
    }

    /**
     * Lands an admissible batch: copies eager data now and checks its slots, or starts the rendezvous
     * receive into the ring (checked when it completes, in {@link #poll}). Returns null, or what is wrong
     * with an eager batch's slots (a stamp or a length field that does not fit): a protocol error that
     * drops the link, its slots not landed.
     */
    @Nullable String land(long first, long last, long bytes, UcpAmData data) {
        long offset = LinkLayout.slotOffset(first, window, stride);
        if (data.isDataValid()) {
            view.put((int) offset, UcxUtils.getByteBufferView(data.getDataAddress(), bytes), 0, (int) bytes);
            return complete(first, last, bytes) ? null : problem;
        }
        UcpRequest r = data.receive(region.address() + offset, null); // no callback: its status is read from the request
        int i = index(first);
        for (long s = first; s <= last; s++) {
            receiving[index(s)] = s;
        }
        receives[i] = r;
        batchLast[i] = last;
        batchBytes[i] = bytes;
        pendingReceives++;
        return null;
    }

    /**
     * Whether frame {@code s} is complete: {@link #LANDED}, {@link #WAITING} (not arrived, or its
     * receive is running), or {@link #FAILED} ({@link #problem()} says why).
     */
    int poll(long s) {
        int i = index(s);
        if (landed[i] == s) {
            return LANDED;
        }
        UcpRequest r = receives[i];
        if (receiving[i] != s || r == null || !r.isCompleted()) {
            return WAITING; // frames of a running receive are all polled at its first: batches arrive whole
        }
        receives[i] = null;
        pendingReceives--;
        if (r.getStatus() != UcsConstants.STATUS.UCS_OK) {
            problem = "receiving frames " + s + ".." + batchLast[i] + " failed (" + UcxStatus.name(r.getStatus()) + ")";
            clearReceiving(s, batchLast[i]);
            return FAILED;
        }
        clearReceiving(s, batchLast[i]);
        return complete(s, batchLast[i], batchBytes[i]) ? LANDED : FAILED;
    }

    /** Retires the receives that completed after their connection was lost; returns how many are still running. */
    int drain() {
        for (int i = 0; i < window; i++) {
            UcpRequest r = receives[i];
            if (r != null && r.isCompleted()) {
                receives[i] = null;
                clearReceiving(receiving[i], batchLast[i]);
                pendingReceives--;
            }
        }
        return pendingReceives;
    }

    /** Why the last {@link #FAILED} frame failed. */
    @Nullable String problem() {
        return problem;
    }

    long length(long s) {
        return view.getLong((int) (LinkLayout.slotOffset(s, window, stride) + LinkLayout.LENGTH));
    }

    /** Frame {@code s}'s payload bytes start at this offset of {@link #view()}. */
    int payloadOffset(long s) {
        return (int) (LinkLayout.slotOffset(s, window, stride) + LinkLayout.HEADER);
    }

    ByteBuffer view() {
        return view;
    }

    /** Checks every slot of a batch whose bytes are in place (stamp, length within the bytes sent) and marks it landed. */
    private boolean complete(long first, long last, long bytes) {
        for (long s = first; s <= last; s++) {
            long off = LinkLayout.slotOffset(s, window, stride);
            long stamp = view.getLong((int) (off + LinkLayout.STAMP));
            long length = view.getLong((int) (off + LinkLayout.LENGTH));
            long room = s < last ? stride - LinkLayout.HEADER : bytes - (last - first) * stride - LinkLayout.HEADER;
            if (stamp != s || length < 0 || length > maxPayload || length > room) {
                problem = "frame " + s + " arrived malformed (stamp " + stamp + ", length " + length + "): a protocol error";
                return false;
            }
        }
        for (long s = first; s <= last; s++) {
            landed[index(s)] = s;
        }
        return true;
    }

    private void clearReceiving(long first, long last) {
        for (long s = first; s <= last; s++) {
            receiving[index(s)] = 0;
        }
    }

    private int index(long s) {
        return (int) ((s - 1) % window);
    }
}
