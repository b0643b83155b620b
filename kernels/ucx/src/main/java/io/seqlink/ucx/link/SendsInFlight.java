package io.seqlink.ucx.link;

import org.jspecify.annotations.Nullable;
import org.openucx.jucx.ucp.UcpConstants;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucs.UcsConstants;

/**
 * The sender's {@link LinkMessages#FRAMES} messages whose sends have not completed, oldest first:
 * UCX reads a batch's slots (and its header) until its send completes, so the window may hand a slot
 * back to the staging thread only when the receiver's consumers acknowledged it and no send that
 * reads it is in flight ({@link #reusableThrough(long)}). Owned by the link thread.
 *
 * <pre>
 *   head                         tail
 *    | first, request, header (connection, first, last, bytes) | ... |   a ring of capacity batches
 * </pre>
 */
final class SendsInFlight {

    private final int capacity;
    private final long[] first;
    private final @Nullable UcpRequest[] requests;
    private final MessageHeaders headers;
    private int head;
    private int size;
    private int failedStatus = UcsConstants.STATUS.UCS_OK;

    SendsInFlight(int capacity) {
        this.capacity = capacity;
        this.first = new long[capacity];
        this.requests = new UcpRequest[capacity];
        this.headers = new MessageHeaders(capacity);
    }

    boolean full() {
        return size == capacity;
    }

    /**
     * Sends slots {@code from..to} ({@code bytes} from {@code address}) as one message on
     * {@code connection}; the caller checked {@link #full()}.
     */
    void send(UcpEndpoint ep, long connection, long from, long to, long address, long bytes) {
        int i = (head + size) % capacity;
        headers.put(i, connection, from, to, bytes);
        first[i] = from;
        // no callback (see LinkMessages.sendControl): completion and status are read from the request; REPLY: the
        // receiver takes frames only from the endpoint that authenticated, which the reply endpoint names
        requests[i] = ep.sendAmNonBlocking(LinkMessages.FRAMES, headers.address(i), LinkMessages.HEADER_BYTES, address, bytes,
                UcpConstants.UCP_AM_SEND_FLAG_REPLY, null);
        size++;
    }

    /**
     * Retires the completed sends at the head; returns how many. A send that failed is retired too (UCX
     * no longer reads its slots) and its status kept for {@link #takeFailure()}.
     */
    int reap() {
        int n = 0;
        while (size > 0) {
            UcpRequest r = requests[head];
            if (r != null && !r.isCompleted()) {
                break;
            }
            if (r != null && r.getStatus() != UcsConstants.STATUS.UCS_OK && failedStatus == UcsConstants.STATUS.UCS_OK) {
                failedStatus = r.getStatus();
            }
            requests[head] = null;
            head = (head + 1) % capacity;
            size--;
            n++;
        }
        return n;
    }

    /**
     * The newest link sequence whose slot the window may reuse, given that the receiver's consumers
     * acknowledged up to {@code consumed}: below the oldest send still in flight (sends are in link
     * sequence order, so every later one reads later slots).
     */
    long reusableThrough(long consumed) {
        return size == 0 ? consumed : Math.min(consumed, first[head] - 1);
    }

    /** The status of the first failed send since the last call (UCS_OK: none), and forgets it. */
    int takeFailure() {
        int f = failedStatus;
        failedStatus = UcsConstants.STATUS.UCS_OK;
        return f;
    }

    /** After the endpoint's close completed, which completed every request on it: forgets what is left. */
    void clear() {
        while (size > 0) {
            requests[head] = null;
            head = (head + 1) % capacity;
            size--;
        }
        failedStatus = UcsConstants.STATUS.UCS_OK;
    }
}
