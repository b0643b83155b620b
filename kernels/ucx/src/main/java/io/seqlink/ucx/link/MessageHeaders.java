package io.seqlink.ucx.link;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpRequest;

/**
 * Source buffers for the headers of outgoing active messages ({@link LinkMessages}), used in turn.
 * UCX 1.13 reads a header until the send completes (it has no "copy the header" flag), so a buffer is
 * handed out again only once the send that used it completed: {@link #claim()} answers -1 while it is
 * still in flight, and the caller sends later (every message of this kind says the newest state, so
 * one skipped is made good by the next). Owned by the link thread.
 */
final class MessageHeaders {

    private final ByteBuffer words;
    private final long base;
    private final @Nullable UcpRequest[] sends;
    private int next;

    MessageHeaders(int slots) {
        this.words = ByteBuffer.allocateDirect(slots * LinkMessages.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        this.base = UcxUtils.getAddress(words);
        this.sends = new UcpRequest[slots];
    }

    /** The next buffer's index, or -1 while its last send is in flight. */
    int claim() {
        UcpRequest last = sends[next];
        if (last != null && !last.isCompleted()) {
            return -1;
        }
        int slot = next;
        next = (next + 1) % sends.length;
        return slot;
    }

    /** Claims buffer {@code slot} (which the caller knows to be free) and fills its first words. */
    void put(int slot, long w0, long w1, long w2, long w3) {
        int at = slot * LinkMessages.HEADER_BYTES;
        words.putLong(at, w0).putLong(at + 8, w1).putLong(at + 16, w2).putLong(at + 24, w3);
    }

    long address(int slot) {
        return base + (long) slot * LinkMessages.HEADER_BYTES;
    }

    /** Records the send that reads buffer {@code slot} ({@code null}: it completed in the call). */
    void sent(int slot, @Nullable UcpRequest request) {
        sends[slot] = request;
    }

    /** Forgets every send (their endpoint closed, which completed them). */
    void clear() {
        Arrays.fill(sends, null);
    }
}
