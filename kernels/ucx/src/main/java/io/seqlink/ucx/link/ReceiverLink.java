package io.seqlink.ucx.link;

import io.seqlink.channel.PublishChannel;
import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.LinkState;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpAmData;
import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpListener;
import org.openucx.jucx.ucp.UcpListenerParams;
import org.openucx.jucx.ucp.UcpWorker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of a link, on its link thread: listens, lets its {@link SenderAdmission} decide
 * which connection's sender links (handshake, authentication, one sender per channel), takes link
 * messages only from the endpoint that linked, lands
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

    private final SenderAdmission admission;

    // link thread only
    private @Nullable UcpListener listener;
    private final ArrayDeque<UcpConnectionRequest> requests = new ArrayDeque<>();
    private final HandshakeReplies replies = new HandshakeReplies();
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

    public ReceiverLink(UcpContext context, BridgeSettings settings, PublishChannel local, InetSocketAddress listenAddress,
            RegisteredRegion landing, OriginTable origins) {
        super(context, settings, "seqlink-ucx-receive-" + local.name(), listenAddress.toString());
        this.local = local;
        this.listenAddress = listenAddress;
        this.slotBytes = local.spec().slotBytes();
        this.landing = new LandingRing(landing, settings.window(), slotBytes);
        this.intake = new FrameIntake(local, this.landing, origins, status);
        this.stallMessage = "the sender sent no heartbeat for " + settings.linkTimeout() + " (link stalled, or the sender hangs)";
        this.admission = new SenderAdmission(local.name(), slotBytes, settings, status, replies, log);
        if (!admission.authenticates()) {
            log.warn("seqlink UCX channel '{}': the receiver on {} takes senders WITHOUT authentication (allow-unauthenticated): "
                    + "anyone who reaches the address can publish into the channel", local.name(), listenAddress);
        }
    }

    /** The address the listener is bound to (its port chosen by the system when 0 was asked). */
    public @Nullable InetSocketAddress boundAddress() {
        return bound;
    }

    @Override
    protected void open(UcpWorker w) {
        w.setAmRecvHandler(Handshake.HELLO_ID, guard(Handshake.HELLO_ID, (headerAddress, headerSize, data, replyEp) -> {
            SenderAdmission.Pending p = admission.waiting(Handshake.HELLO_ID, replyEp, endpoint);
            if (p != null) {
                admission.hello(p, Handshake.decodeHello(body(data, "HELLO")), liveEpoch());
            }
        }));
        w.setAmRecvHandler(Handshake.PROOF_ID, guard(Handshake.PROOF_ID, (headerAddress, headerSize, data, replyEp) -> {
            SenderAdmission.Pending p = admission.waiting(Handshake.PROOF_ID, replyEp, endpoint);
            if (p != null) {
                admission.proof(p, Handshake.decodeProof(body(data, "PROOF")), liveEpoch());
            }
        }));
        w.setAmRecvHandler(LinkMessages.FRAMES, guard(LinkMessages.FRAMES, (headerAddress, headerSize, data, replyEp) -> {
            ByteBuffer h = LinkMessages.header(LinkMessages.FRAMES, headerAddress, headerSize);
            if (linked(LinkMessages.FRAMES, replyEp, h) && intake.taking() && failure == null) {
                String wrong = intake.land(h.getLong(8), h.getLong(16), h.getLong(24), data);
                if (wrong != null) {
                    protocolError(wrong);
                }
            }
        }));
        w.setAmRecvHandler(LinkMessages.BEAT, guard(LinkMessages.BEAT, (headerAddress, headerSize, data, replyEp) -> {
            ByteBuffer h = LinkMessages.header(LinkMessages.BEAT, headerAddress, headerSize);
            if (linked(LinkMessages.BEAT, replyEp, h)) {
                senderBeat = h.getLong(8);
                status.remoteStaged(h.getLong(16));
            }
        }));
        w.setAmRecvHandler(LinkMessages.BYE, guard(LinkMessages.BYE, (headerAddress, headerSize, data, replyEp) -> {
            ByteBuffer h = LinkMessages.header(LinkMessages.BYE, headerAddress, headerSize);
            if (linked(LinkMessages.BYE, replyEp, h)) {
                bye = h.getLong(8);
            }
        }));
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
        if (admission.hasPending()) {
            for (UcpEndpoint ep : admission.expired(now)) {
                closeEndpoint(ep, false); // progresses the worker: the admission forgot these first
                work++;
            }
        }
        replies.prune();
        if (admission.accepted() != null) {
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
        InetSocketAddress client = request.getClientAddress();
        if (admission.rejection(client) != null) {
            try {
                request.reject();
            } catch (RuntimeException ex) {
                log.debug("seqlink UCX channel '{}': rejecting a connection failed: {}", local.name(), ex.toString());
            }
            return;
        }
        try {
            int gen = generation;
            UcpEndpoint ep = worker().newEndpoint(new UcpEndpointParams().setConnectionRequest(request).setPeerErrorHandlingMode()
                    .setName(name).setErrorHandler((e, code, message) -> {
                        if (gen == generation && e.equals(endpoint) && failure == null) {
                            failure = "endpoint error: " + message;
                        }
                    }));
            admission.admit(ep, String.valueOf(client), now);
        } catch (RuntimeException ex) {
            log.warn("seqlink UCX channel '{}': accepting a connection failed: {}", local.name(), ex.toString());
        }
    }

    /** The epoch of the sender whose link is live (connected, its heartbeat moving), or 0 when none is. */
    private long liveEpoch() {
        return endpoint != null && status.state() == LinkState.CONNECTED ? intake.epoch() : 0;
    }

    /** The data of a handshake message, which is eager (a few dozen bytes) or malformed. */
    private static ByteBuffer body(UcpAmData data, String what) {
        if (!data.isDataValid() || data.getLength() > 1 << 16) {
            throw new MalformedMessageException("a " + what + " of " + data.getLength() + " B sent by rendezvous");
        }
        return UcxUtils.getByteBufferView(data.getDataAddress(), (int) data.getLength());
    }

    /**
     * Whether a link message comes from the linked endpoint on its connection: from a connection waiting for
     * its handshake it is refused (that connection is dropped), from one closed lately it is ignored, on
     * the linked endpoint with another connection number it is a protocol error.
     */
    private boolean linked(int id, @Nullable UcpEndpoint replyEp, ByteBuffer h) {
        UcpEndpoint ep = endpoint;
        if (ep != null && ep.equals(replyEp)) {
            if (h.getLong(0) != connection) {
                throw new MalformedMessageException("a link message (id " + id + ") of connection " + h.getLong(0)
                        + " on the endpoint of connection " + connection);
            }
            return true;
        }
        if (replyEp == null) {
            throw new MalformedMessageException("a link message (id " + id + ") that names no endpoint");
        }
        if (admission.isRetired(replyEp)) {
            return false; // sent before its connection closed
        }
        throw new MalformedMessageException("a link message (id " + id + ") from an endpoint that is not linked");
    }

    @Override
    protected void refuseMessage(int id, @Nullable UcpEndpoint from, RuntimeException why) {
        String what = (why instanceof MalformedMessageException ? "" : "handling it failed: ") + why.getMessage();
        String client = from == null ? null : admission.clientOf(from);
        String source = from == null ? "an unnamed endpoint" : client != null ? client
                : from.equals(endpoint) ? status.peer() : "an endpoint not known";
        admission.refusedMessage(id, source, what);
        if (from == null) {
            return;
        }
        if (from.equals(endpoint)) {
            if (failure == null) {
                failure = "a protocol error on the link: " + what;
            }
            return;
        }
        admission.drop(from);
    }

    /** A protocol error on the linked connection, found inside progress: counted; the link is dropped on the next pass. */
    private void protocolError(String what) {
        status.refused(LinkStatus.Refusal.PROTOCOL, what + " (from " + status.peer() + ")");
        if (failure == null) {
            failure = what;
        }
    }

    /**
     * Takes the accepted handshake once the previous connection is closed and every receive it started
     * into the landing ring has ended, so no byte of an older connection can land after this one's.
     */
    private int completeHandshake(long now) {
        if (endpoint != null) {
            SenderAdmission.Accepted next = admission.accepted();
            lose(next != null && next.hello().epoch() != intake.epoch() ? "another sender (epoch "
                    + Long.toHexString(next.hello().epoch()) + ") took over the link, whose heartbeat had stopped"
                    : "the sender connected again");
        }
        if (landing.drain() > 0) {
            SenderAdmission.Accepted late = admission.accepted();
            if (late != null && now - admission.acceptDeadlineNanos() >= 0) {
                log.warn("seqlink UCX channel '{}': receives of the lost connection did not end within {}; the sender "
                        + "will connect again", local.name(), settings.connectTimeout());
                admission.taken();
                admission.retire(late.endpoint());
                closeEndpoint(late.endpoint(), false);
            }
            return 0;
        }
        SenderAdmission.Accepted from = admission.accepted(); // read after lose() and drain(): their progress may replace it
        if (from == null) {
            return 0; // dropped during that progress (a protocol error on it)
        }
        Handshake.Hello h = from.hello();
        admission.taken();
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
        try {
            replies.send(from.endpoint(), new Handshake.Welcome(Handshake.ACCEPTED, "", received + 1, landing.window(),
                    landing.stride()));
        } catch (UcxException ex) {
            // the sender gave up waiting (its connect-timeout) and closed: its next attempt is taken
            log.info("seqlink UCX channel '{}': the connection from {} ended before its handshake completed ({})", local.name(),
                    from.client(), ex.getMessage());
            generation++;
            endpoint = null;
            admission.retire(from.endpoint());
            closeEndpoint(from.endpoint(), false);
            return 1;
        }
        status.connected(from.client(), epoch, now);
        status.received(received);
        log.info("seqlink UCX channel '{}': sender at {} linked{} (epoch {}, resuming at frame {})", local.name(), from.client(),
                admission.authenticates() ? ", authenticated" : " WITHOUT authentication", Long.toHexString(epoch), received + 1);
        return 1;
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
        if (ep != null) {
            admission.retire(ep);
        }
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
    protected void progressFailed(RuntimeException ex) {
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
            admission.retire(ep);
            close(ep, true);
        }
        return true;
    }

    @Override
    protected void release() {
        generation++;
        close(endpoint, false);
        endpoint = null;
        admission.closeAll().forEach(ep -> closeEndpoint(ep, false));
        if (listener != null) {
            listener.close();
        }
    }
}
