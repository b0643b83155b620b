package io.seqlink.ucx.link;

import io.seqlink.channel.PublishChannel;
import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.LinkState;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpListener;
import org.openucx.jucx.ucp.UcpListenerParams;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucs.UcsConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of a link, on its link thread: listens, takes the sender's handshake, lands
 * {@link LinkMessages#FRAMES} batches in its {@link LandingRing} and moves landed frames, in link
 * sequence order, into the local channel (claim, copy, commit; one publish per pass). Its STATUS
 * (received, consumed, heartbeat) goes back whenever it moved, and at every heartbeat. "Consumed" is
 * the newest link sequence every local consumer acknowledged: the sender reuses a slot only then,
 * which is what makes the link lossless end to end.
 */
public final class ReceiverLink extends LinkLoop {

    private static final Logger log = LoggerFactory.getLogger(ReceiverLink.class);

    private final PublishChannel local;
    private final InetSocketAddress listenAddress;
    private final LandingRing landing;
    private final long slotBytes;
    private final FrameIntake intake;
    private final MessageHeaders control = new MessageHeaders(16);
    private final String stallMessage;
    private volatile @Nullable InetSocketAddress bound;

    // link thread only
    private @Nullable UcpListener listener;
    private final ArrayDeque<UcpConnectionRequest> requests = new ArrayDeque<>();
    private final List<Pending> pending = new ArrayList<>();
    private final HandshakeReplies replies = new HandshakeReplies();
    private @Nullable Pending accepting;
    private Handshake.@Nullable Hello acceptingHello;
    private long acceptDeadlineNanos;
    private @Nullable UcpEndpoint endpoint;
    private long connection;
    private @Nullable String failure;
    private long bye;
    private int generation;
    private long reportedReceived = -1;
    private long reportedConsumed = -1;
    private long beat;
    private long senderBeat;
    private long lastSenderBeat = -1;
    private long nextStatusNanos;
    private long pendingDeadlineNanos;

    public ReceiverLink(UcpContext context, BridgeSettings settings, PublishChannel local, InetSocketAddress listenAddress,
            RegisteredRegion landing, OriginTable origins) {
        super(context, settings, "seqlink-ucx-receive-" + local.name(), listenAddress.toString());
        this.local = local;
        this.listenAddress = listenAddress;
        this.slotBytes = local.spec().slotBytes();
        this.landing = new LandingRing(landing, settings.window(), slotBytes);
        this.intake = new FrameIntake(local, this.landing, origins, status);
        this.stallMessage = "the sender sent no heartbeat for " + settings.linkTimeout() + " (link stalled, or the sender hangs)";
    }

    /** The address the listener is bound to (its port chosen by the system when 0 was asked). */
    public @Nullable InetSocketAddress boundAddress() {
        return bound;
    }

    @Override
    protected void open(UcpWorker w) {
        w.setAmRecvHandler(Handshake.HELLO_ID, (headerAddress, headerSize, data, replyEp) -> {
            if (data.isDataValid()) {
                hello(Handshake.decodeHello(UcxUtils.getByteBufferView(data.getDataAddress(), (int) data.getLength())), replyEp);
            }
            return UcsConstants.STATUS.UCS_OK;
        });
        w.setAmRecvHandler(LinkMessages.FRAMES, (headerAddress, headerSize, data, replyEp) -> {
            ByteBuffer h = LinkMessages.header(headerAddress, headerSize);
            if (endpoint != null && h.getLong(0) == connection && intake.taking() && failure == null) {
                String wrong = intake.land(h.getLong(8), h.getLong(16), h.getLong(24), data);
                if (wrong != null) {
                    failure = wrong;
                }
            }
            return UcsConstants.STATUS.UCS_OK; // a batch not taken is dropped by UCX (rendezvous: never fetched)
        });
        w.setAmRecvHandler(LinkMessages.BEAT, (headerAddress, headerSize, data, replyEp) -> {
            ByteBuffer h = LinkMessages.header(headerAddress, headerSize);
            if (endpoint != null && h.getLong(0) == connection) {
                senderBeat = h.getLong(8);
                status.remoteStaged(h.getLong(16));
            }
            return UcsConstants.STATUS.UCS_OK;
        });
        w.setAmRecvHandler(LinkMessages.BYE, (headerAddress, headerSize, data, replyEp) -> {
            ByteBuffer h = LinkMessages.header(headerAddress, headerSize);
            if (endpoint != null && h.getLong(0) == connection) {
                bye = h.getLong(8);
            }
            return UcsConstants.STATUS.UCS_OK;
        });
        listener = w.newListener(new UcpListenerParams().setSockAddr(listenAddress).setConnectionHandler(requests::add));
        bound = listener.getAddress();
        status.finish(LinkState.CONNECTING, null);
        log.info("seqlink UCX channel '{}': receiving on {}", local.name(), bound);
    }

    @Override
    protected int step(long now) {
        try {
            return advance(now);
        } catch (UcxException ex) {
            lose("UCX failed: " + ex.getMessage()); // a send on an endpoint that died under it
            return 1;
        }
    }

    private int advance(long now) {
        int work = 0;
        UcpConnectionRequest request;
        while ((request = requests.poll()) != null) {
            accept(request, now);
            work++;
        }
        if (!pending.isEmpty() && now - pendingDeadlineNanos >= 0) {
            pending.forEach(p -> closeEndpoint(p.endpoint(), false)); // connected, but no handshake came
            pending.clear();
        }
        replies.prune();
        if (accepting != null) {
            work += completeHandshake(now);
        }
        if (endpoint == null) {
            return work;
        }
        if (bye != 0) {
            log.info("seqlink UCX channel '{}': the sender closed the link{}; waiting for it", local.name(),
                    bye == LinkMessages.BYE_RECONNECTING ? " to reconnect" : "");
            end(bye == LinkMessages.BYE_RECONNECTING ? "the sender is reconnecting" : "the sender closed the link", true);
            return work + 1;
        }
        if (failure != null) {
            lose(failure);
            return work + 1;
        }
        work += intake.deliver();
        String landingProblem = intake.takeProblem();
        if (landingProblem != null) {
            failure = landingProblem;
        }
        work += report(endpoint, now);
        if (senderBeat != lastSenderBeat) {
            lastSenderBeat = senderBeat;
            status.peerBeat(now);
            status.stalled(null);
        } else if (now - status.lastPeerBeatNanos() > settings.linkTimeout().toNanos()) {
            status.stalled(stallMessage); // a no-op unless connected: the message is built once
        }
        return work;
    }

    private void accept(UcpConnectionRequest request, long now) {
        try {
            int gen = generation;
            UcpEndpoint ep = worker().newEndpoint(new UcpEndpointParams().setConnectionRequest(request).setPeerErrorHandlingMode()
                    .setName(name).setErrorHandler((e, code, message) -> {
                        if (gen == generation && e.equals(endpoint) && failure == null) {
                            failure = "endpoint error: " + message;
                        }
                    }));
            pending.add(new Pending(ep, String.valueOf(request.getClientAddress())));
            pendingDeadlineNanos = now + settings.connectTimeout().toNanos();
        } catch (RuntimeException ex) {
            log.warn("seqlink UCX channel '{}': accepting a connection failed: {}", local.name(), ex.toString());
        }
    }

    /** The sender's handshake, inside progress: checked here, completed by {@link #completeHandshake} outside it. */
    private void hello(Handshake.Hello h, @Nullable UcpEndpoint replyEp) {
        Pending from = null;
        for (Pending p : pending) {
            if (p.endpoint().equals(replyEp)) {
                from = p;
            }
        }
        if (from == null) {
            return; // a handshake of an endpoint already closed
        }
        String refusal = refusal(h);
        if (refusal != null) {
            log.error("seqlink UCX channel '{}': refusing the sender: {}", local.name(), refusal);
            replies.send(from.endpoint(), Handshake.Welcome.refused(refusal)); // closed with the other pending ones
            return;
        }
        pending.remove(from);
        if (accepting != null) {
            pending.add(accepting); // a newer handshake wins; the older endpoint is closed with the pending ones
        }
        accepting = from;
        acceptingHello = h;
        acceptDeadlineNanos = System.nanoTime() + settings.connectTimeout().toNanos();
    }

    /**
     * Takes the accepted handshake once the previous connection is closed and every receive it started
     * into the landing ring has ended, so no byte of an older connection can land after this one's.
     */
    /** The handshake being accepted: {@link #completeHandshake} runs only with one, which progress may only replace. */
    private Pending accepted() {
        return Objects.requireNonNull(accepting, "accepting");
    }

    private int completeHandshake(long now) {
        if (endpoint != null) {
            lose("a new connection from the sender replaced this one");
        }
        if (landing.drain() > 0) {
            if (now - acceptDeadlineNanos >= 0) {
                log.warn("seqlink UCX channel '{}': receives of the lost connection did not end within {}; the sender "
                        + "will connect again", local.name(), settings.connectTimeout());
                closeEndpoint(accepted().endpoint(), false);
                accepting = null;
                acceptingHello = null;
            }
            return 0;
        }
        Pending from = accepted(); // read after lose() and drain(): a handshake during their progress replaced it
        Handshake.Hello h = Objects.requireNonNull(acceptingHello, "set with accepting");
        accepting = null;
        acceptingHello = null;
        generation++;
        endpoint = from.endpoint();
        connection = h.connection();
        failure = null;
        bye = 0;
        intake.resume(h);
        long epoch = intake.epoch();
        long received = intake.received();
        landing.reset(LinkLayout.strideFor(h.slotBytes()));
        lastSenderBeat = -1;
        senderBeat = 0;
        reportedReceived = -1;
        reportedConsumed = -1;
        control.clear();
        status.connected(from.client(), epoch, now);
        status.received(received);
        replies.send(endpoint, new Handshake.Welcome(Handshake.ACCEPTED, "", received + 1, landing.window(), landing.stride()));
        log.info("seqlink UCX channel '{}': sender linked (epoch {}, resuming at frame {})", local.name(),
                Long.toHexString(epoch), received + 1);
        return 1;
    }

    private @Nullable String refusal(Handshake.Hello h) {
        if (!h.channel().equals(local.name())) {
            return "this receiver carries channel '" + local.name() + "', the sender sends '" + h.channel()
                    + "': point the sender at the receiver of its channel";
        }
        if (h.slotBytes() > slotBytes) {
            return "the sender's frames are up to " + h.slotBytes() + " B, channel '" + local.name() + "' here has slots of "
                    + slotBytes + " B: raise slot-size of the receiving channel to at least " + h.slotBytes() + " B";
        }
        return null;
    }

    /** Sends the STATUS back on the connection's endpoint {@code ep} when it moved, or at a heartbeat. */
    private int report(UcpEndpoint ep, long now) {
        long consumed = intake.consumed();
        long received = intake.received();
        if (consumed == reportedConsumed && received == reportedReceived && now - nextStatusNanos < 0) {
            return 0;
        }
        if (!LinkMessages.sendControl(ep, control, LinkMessages.STATUS, connection, received, consumed, ++beat)) {
            return 0; // every header buffer still in flight: the next pass sends the newest state
        }
        reportedConsumed = consumed;
        reportedReceived = received;
        nextStatusNanos = now + settings.heartbeatInterval().toNanos();
        status.consumed(consumed);
        return 1;
    }

    /** A lost link: closed at once; the sender connects again. */
    private void lose(String why) {
        log.warn("seqlink UCX channel '{}': link from the sender lost: {}; waiting for it to reconnect", local.name(), why);
        end(why, false);
    }

    /** Ends the connection (in order, or at once) and waits for the sender. */
    private void end(String why, boolean orderly) {
        generation++;
        UcpEndpoint ep = endpoint;
        endpoint = null;
        failure = null;
        bye = 0;
        close(ep, orderly);
        if (status.state() != LinkState.FAILED) {
            status.lost(LinkState.RECONNECTING, why, true);
        }
    }

    /**
     * Closes a connection's endpoint. In order: the receives it started into the landing ring finish
     * first (UCX must not close an endpoint with receives running on it), then a flushing close; at
     * once, or when they do not finish within {@code connect-timeout}: a forced close, which cancels them.
     */
    private void close(@Nullable UcpEndpoint ep, boolean orderly) {
        boolean drained = !orderly || awaitReceives();
        closeEndpoint(ep, orderly && drained);
        landing.drain();
        control.clear();
    }

    private boolean awaitReceives() {
        long deadline = System.nanoTime() + settings.connectTimeout().toNanos();
        while (landing.drain() > 0) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                worker().progress();
            } catch (Exception ex) {
                return false;
            }
        }
        return true;
    }

    /** Stops taking frames from the link (what landed stays with the sender, unconfirmed). Any thread. */
    public void stopTaking() {
        intake.stopTaking();
    }

    /** Frames published here that the local consumers have not all acknowledged yet. Link thread. */
    private boolean unconfirmed() {
        return endpoint != null && intake.consumed() < intake.received();
    }

    @Override
    protected void progressFailed(UcxException ex) {
        if (endpoint != null && failure == null) {
            failure = "UCX failed: " + ex.getMessage();
        }
    }

    @Override
    protected boolean closing(long now, boolean overdue) {
        intake.stopTaking();
        if (!overdue && unconfirmed()) {
            step(now); // keep reporting credits while the local consumers finish what was published
            return false;
        }
        if (endpoint != null) {
            reportedConsumed = -1;
            try {
                report(endpoint, now); // the last credit, then BYE after it on the same endpoint, then a flushing close
                LinkMessages.sendControl(endpoint, control, LinkMessages.BYE, connection, LinkMessages.BYE_CLOSING, 0, 0);
            } catch (UcxException ex) {
                // the sender is gone already; it resends what it never heard of
            }
            generation++;
            UcpEndpoint ep = endpoint;
            endpoint = null;
            close(ep, true);
        }
        return true;
    }

    @Override
    protected void release() {
        generation++;
        close(endpoint, false);
        endpoint = null;
        if (accepting != null) {
            closeEndpoint(accepting.endpoint(), false);
        }
        pending.forEach(p -> closeEndpoint(p.endpoint(), false));
        pending.clear();
        if (listener != null) {
            listener.close();
        }
    }

    /** An accepted connection waiting for its handshake. */
    private record Pending(UcpEndpoint endpoint, String client) {
    }
}
