package io.seqlink.ucx;

import io.seqlink.channel.PublishChannel;
import io.seqlink.ucx.link.LinkLayout;
import io.seqlink.ucx.link.LinkStatus;
import io.seqlink.ucx.link.OriginTable;
import io.seqlink.ucx.link.ReceiverLink;
import io.seqlink.ucx.link.RegisteredRegion;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.openucx.jucx.ucp.UcpContext;

/**
 * The consumer host's end: listens for the {@link SendingBridge} of a channel and publishes what
 * arrives into the local {@link PublishChannel} of the same name, whose consumers are ordinary
 * listeners ({@code @ChannelListener} under Spring). The bridge is that channel's only producer.
 *
 * <p>Each frame keeps where it came from: {@link #linkSequence(long)} and {@link #senderEpoch(long)}
 * of a local frame identify it across reconnects and receiver restarts, for deduplication where the
 * guarantee is at-least-once (a restarted receiver).
 *
 * <p>Threads: see {@link UcxBridge}; the origin look-ups are for the listeners of the local channel
 * while they hold the frame.
 */
public final class ReceivingBridge implements UcxBridge {

    private final PublishChannel channel;
    private final RegisteredRegion landing;
    private final OriginTable origins;
    private final ReceiverLink link;
    private final CloseOnce closing = new CloseOnce();

    ReceivingBridge(UcpContext context, PublishChannel channel, InetSocketAddress listen, BridgeSettings settings) {
        this.channel = channel;
        long stride = LinkLayout.strideFor(channel.spec().slotBytes());
        this.landing = RegisteredRegion.allocate(context, LinkLayout.regionBytes(settings.window(), stride));
        this.origins = new OriginTable(channel.spec().slots());
        try {
            this.link = new ReceiverLink(context, settings, channel, listen, landing, origins);
            link.start(settings.connectTimeout());
        } catch (RuntimeException ex) {
            landing.close();
            throw ex;
        }
    }

    /** Where the sender connects: the listen address, with the port the system chose when 0 was asked. */
    public InetSocketAddress boundAddress() {
        InetSocketAddress a = link.boundAddress();
        if (a == null) {
            throw new IllegalStateException("the receiver of channel '" + channel.name() + "' is not listening");
        }
        return a;
    }

    /** The link sequence of local frame {@code localSequence}, or -1 when unknown (not from the link, or overwritten). */
    public long linkSequence(long localSequence) {
        return origins.linkSequence(localSequence);
    }

    /** The epoch of the sender process that sent local frame {@code localSequence}, or 0 when unknown. */
    public long senderEpoch(long localSequence) {
        return origins.senderEpoch(localSequence);
    }

    @Override
    public String channel() {
        return channel.name();
    }

    @Override
    public BridgeSnapshot.Role role() {
        return BridgeSnapshot.Role.RECEIVE;
    }

    @Override
    public LinkState state() {
        return link.status().state();
    }

    @Override
    public BridgeSnapshot snapshot() {
        LinkStatus s = link.status();
        return new BridgeSnapshot(channel.name(), role(), s.state(), s.peer(), s.problem(), s.epoch(), s.remoteStaged(),
                s.remoteStaged(), s.received(), s.consumed(), s.bytes(), s.reconnects(), 0, false, s.peerSilentMillis(), s.refusals());
    }

    /**
     * Stops taking frames from the link, waits (within {@code timeout}) for the local consumers to
     * acknowledge what was published and sends that last credit, then closes. Frames that had landed but
     * were not published stay with the sender, which carries them to the next receiver.
     */
    @Override
    public BridgeCloseReport close(Duration timeout) {
        return closing.close(timeout, () -> {
            link.stopTaking();
            boolean ended = link.stop(timeout);
            if (ended) {
                landing.close();
            }
            link.status().finish(LinkState.CLOSED, null);
            return report(ended);
        }, () -> report(false));
    }

    private BridgeCloseReport report(boolean ended) {
        LinkStatus s = link.status();
        long taken = s.received();
        long confirmed = s.consumed();
        return new BridgeCloseReport(channel.name(), role(), taken, confirmed, taken - confirmed,
                Math.max(0, s.remoteStaged() - taken), confirmed < taken || !ended);
    }

    @Override
    public String toString() {
        return "ReceivingBridge[" + channel.name() + " on " + link.boundAddress() + ", " + state() + "]";
    }
}
