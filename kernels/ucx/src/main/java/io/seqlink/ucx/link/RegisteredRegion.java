package io.seqlink.ucx.link;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpMemory;

/**
 * Host memory allocated and registered by UCX ({@code memoryMap}): a link's send or landing ring. UCX
 * reads a send from it and lands a rendezvous receive in it without registering memory on the way.
 * Closed once, by its owner, after the link thread (and with it the UCX worker) is gone.
 */
public final class RegisteredRegion implements AutoCloseable {

    private final UcpMemory memory;
    private final ByteBuffer view;
    private final long length;

    private RegisteredRegion(UcpMemory memory, long length) {
        this.memory = memory;
        this.length = length;
        this.view = UcxUtils.getByteBufferView(memory.getAddress(), (int) length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Allocates and registers {@code length} bytes of host memory, zeroed. */
    public static RegisteredRegion allocate(UcpContext context, long length) {
        if (length < 1 || length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a link region is 1 B to 2 GiB, asked for " + length
                    + " B: lower the bridge's window or the channel's slot-size");
        }
        UcpMemory memory = context.memoryMap(new UcpMemMapParams().allocate().setLength(length));
        RegisteredRegion region = new RegisteredRegion(memory, length);
        for (int i = 0; i < length; i += 8) {
            if (i + 8 <= length) {
                region.view.putLong(i, 0);
            }
        }
        return region;
    }

    public long address() {
        return memory.getAddress();
    }

    public long length() {
        return length;
    }

    /** The whole region as a little-endian direct buffer (absolute access only; shared, do not move its position). */
    public ByteBuffer view() {
        return view;
    }

    @Override
    public void close() {
        memory.deregister();
    }
}
