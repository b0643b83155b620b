package io.seqlink.ucx.link;

import io.seqlink.channel.PublishChannel;
import io.seqlink.security.PeerChallenge;
import io.seqlink.security.SharedSecret;
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
 * The receiving end of a link, on its link thread: listens, takes the sender's handshake, lands
 * {@link LinkMessages#FRAMES} batches in its {@link LandingRing} and moves landed frames, in link
 * sequence order, into the local channel (claim, copy, commit; one publish per pass). Its STATUS
 * (received, consumed, heartbeat) goes back whenever it moved, and at every heartbeat. "Consumed" is
 * the newest link sequence every local consumer acknowledged: the sender reuses a slot only then,
 * which is what makes the link lossless end to end.
 */
public final class ReceiverLink extends LinkLoop {

    private static final Logger log = LoggerFactory.getLogger(ReceiverLink.class);
    /** Connections waiting for their handshake at most; more are rejected until some finish. */
    static final int MAX_PENDING = 16;
    private static final int MAX_RETIRED = 64;
    private static final long REFUSED_LINGER_NANOS = 200_000_000L;

    private final PublishChannel local;
    private final InetSocketAddress listenAddress;
    private final LandingRing landing;
    private final long slotBytes;
    private final FrameIntake intake;
    private final MessageHeaders control = new MessageHeaders(16);
    private final String stallMessage;
    private volatile @Nullable InetSocketAddress bound;

    private final @Nullable PeerChallenge challenge;

    // link thread only
    private @Nullable UcpListener listener;
    private final ArrayDeque<UcpConnectionRequest> requests = new ArrayDeque<>();
    private final List<Pending> pending = new ArrayList<>();
    /** Endpoints closed lately: a message still arriving on one is dropped quietly (it is no protocol error). */
    private final ArrayDeque<UcpEndpoint> retired = new ArrayDeque<>();
    private final HandshakeReplies replies = new HandshakeReplies();
    private final RefusalLog refusals;
    private @Nullable Pending accepting;
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

    public ReceiverLink(UcpContext context, BridgeSettings settings, PublishChannel local, InetSocketAddress listenAddress,
            RegisteredRegion landing, OriginTable origins) {
        super(context, settings, "seqlink-ucx-receive-" + local.name(), listenAddress.toString());
        this.local = local;
        this.listenAddress = listenAddress;
        this.slotBytes = local.spec().slotBytes();
        this.landing = new LandingRing(landing, settings.window(), slotBytes);
        this.intake = new FrameIntake(local, this.landing, origins, status);
        this.refusals = new RefusalLog(log, local.name());
        this.stallMessage = "the sender sent no heartbeat for " + settings.linkTimeout() + " (link stalled, or the sender hangs)";
        SharedSecret secret = settings.security().secret();
        this.challenge = secret == null ? null : new PeerChallenge(secret);
        if (challenge != null) {
            // the JDK's first MAC takes a while (provider look-up): once here, not in a sender's connect-timeout
            challenge.proof(PeerChallenge.Role.RESPONDER, local.name(), 1, PeerChallenge.newNonce(), PeerChallenge.newNonce());
        }
        if (challenge == null) {
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
            Pending p = waiting(Handshake.HELLO_ID, replyEp);
            if (p != null) {
                hello(p, Handshake.decodeHello(body(data, "HELLO")));
            }
        }));
        w.setAmRecvHandler(Handshake.PROOF_ID, guard(Handshake.PROOF_ID, (headerAddress, headerSize, data, replyEp) -> {
            Pending p = waiting(Handshake.PROOF_ID, replyEp);
            if (p != null) {
                proof(p, Handshake.decodeProof(body(data, "PROOF")));
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
        if (!pending.isEmpty()) {
            work += closeExpired(now);
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
        InetSocketAddress client = request.getClientAddress();
        if (!settings.security().allows(client == null ? null : client.getAddress())) {
            reject(request, "a connection from " + client + ", which is not in allowed-peers");
            return;
        }
        if (pending.size() >= MAX_PENDING) {
            reject(request, "a connection from " + client + ": " + MAX_PENDING + " connections are waiting for their handshake");
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
            retired.removeIf(ep::equals); // UCX reuses the handle of an endpoint closed before: this one is not retired
            pending.add(new Pending(ep, String.valueOf(client), now + settings.connectTimeout().toNanos()));
        } catch (RuntimeException ex) {
            log.warn("seqlink UCX channel '{}': accepting a connection failed: {}", local.name(), ex.toString());
        }
    }

    private void reject(UcpConnectionRequest request, String why) {
        status.refused(LinkStatus.Refusal.HANDSHAKE, why);
        refusals.refused("refusing " + why);
        try {
            request.reject();
        } catch (RuntimeException ex) {
            log.debug("seqlink UCX channel '{}': rejecting a connection failed: {}", local.name(), ex.toString());
        }
    }

    /** Closes the connections whose handshake did not finish in time, and those refused. */
    private int closeExpired(long now) {
        List<Pending> expired = null;
        for (Pending p : pending) {
            if (now - p.deadlineNanos >= 0) {
                if (expired == null) {
                    expired = new ArrayList<>();
                }
                expired.add(p);
            }
        }
        if (expired == null) {
            return 0;
        }
        pending.removeAll(expired); // before closing: the closes progress the worker, whose callbacks read the list
        for (Pending p : expired) {
            retire(p.endpoint);
            closeEndpoint(p.endpoint, false);
        }
        return expired.size();
    }

    private void retire(UcpEndpoint ep) {
        retired.addLast(ep);
        if (retired.size() > MAX_RETIRED) {
            retired.removeFirst();
        }
    }

    /** The data of a handshake message, which is eager (a few dozen bytes) or malformed. */
    private static ByteBuffer body(UcpAmData data, String what) {
        if (!data.isDataValid() || data.getLength() > 1 << 16) {
            throw new MalformedMessageException("a " + what + " of " + data.getLength() + " B sent by rendezvous");
        }
        return UcxUtils.getByteBufferView(data.getDataAddress(), (int) data.getLength());
    }

    /**
     * The connection waiting for its handshake that {@code replyEp} belongs to; else null, the message
     * refused: from the linked endpoint (a handshake message mid-link drops the link) or from none known.
     */
    private @Nullable Pending waiting(int id, @Nullable UcpEndpoint replyEp) {
        for (Pending p : pending) {
            if (p.endpoint.equals(replyEp)) {
                return p.refused ? null : p; // a refused one is answered already and closed soon
            }
        }
        if (accepting != null && accepting.endpoint.equals(replyEp)) {
            throw new MalformedMessageException("a handshake message (id " + id + ") after the handshake");
        }
        if (replyEp != null && replyEp.equals(endpoint)) {
            throw new MalformedMessageException("a handshake message (id " + id + ") on the linked connection");
        }
        if (!isRetired(replyEp)) {
            throw new MalformedMessageException("a handshake message (id " + id + ") from an endpoint not waiting for one");
        }
        return null;
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
        if (isRetired(replyEp)) {
            return false; // sent before its connection closed
        }
        throw new MalformedMessageException("a link message (id " + id + ") from an endpoint that is not linked");
    }

    private boolean isRetired(@Nullable UcpEndpoint ep) {
        for (UcpEndpoint r : retired) {
            if (r.equals(ep)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void refuseMessage(int id, @Nullable UcpEndpoint from, RuntimeException why) {
        String what = (why instanceof MalformedMessageException ? "" : "handling it failed: ") + why.getMessage();
        String source = from == null ? "an unnamed endpoint" : clientOf(from);
        status.refused(LinkStatus.Refusal.PROTOCOL, "message " + id + " from " + source + ": " + what);
        refusals.refused("refusing a message (id " + id + ") from " + source + ": " + what);
        if (from == null) {
            return;
        }
        if (from.equals(endpoint)) {
            if (failure == null) {
                failure = "a protocol error on the link: " + what;
            }
            return;
        }
        for (Pending p : pending) {
            if (p.endpoint.equals(from)) {
                p.deadlineNanos = System.nanoTime(); // closed on the next pass, outside progress
            }
        }
        if (accepting != null && accepting.endpoint.equals(from)) {
            accepting.deadlineNanos = System.nanoTime();
            pending.add(accepting);
            accepting = null;
        }
    }

    private String clientOf(UcpEndpoint ep) {
        for (Pending p : pending) {
            if (p.endpoint.equals(ep)) {
                return p.client;
            }
        }
        if (accepting != null && accepting.endpoint.equals(ep)) {
            return accepting.client;
        }
        return ep.equals(endpoint) ? status.peer() : "an endpoint not known";
    }

    /** A protocol error on the linked connection, found inside progress: counted; the link is dropped on the next pass. */
    private void protocolError(String what) {
        status.refused(LinkStatus.Refusal.PROTOCOL, what + " (from " + status.peer() + ")");
        if (failure == null) {
            failure = what;
        }
    }

    /** A sender's HELLO, inside progress: checked; then challenged, or (without a secret) a candidate at once. */
    private void hello(Pending p, Handshake.Hello h) {
        if (p.hello != null) {
            throw new MalformedMessageException("a second HELLO on one connection");
        }
        String refusal = refusal(h);
        if (refusal != null) {
            refuse(p, LinkStatus.Refusal.HANDSHAKE, refusal);
            return;
        }
        p.hello = h;
        PeerChallenge c = challenge;
        if (c == null) {
            candidate(p);
            return;
        }
        if (!h.authenticates()) {
            refuse(p, LinkStatus.Refusal.AUTHENTICATION, "this receiver requires authentication and the sender offers none: "
                    + "give the sender of channel '" + local.name() + "' the receiver's secret (seqlink.ucx.senders."
                    + local.name() + ".secret or secret-file; BridgeSettings.withSecret)");
            return;
        }
        byte[] nonce = PeerChallenge.newNonce();
        p.nonce = nonce;
        replies.send(p.endpoint, new Handshake.Challenge(nonce,
                c.proof(PeerChallenge.Role.RESPONDER, local.name(), h.epoch(), h.nonce(), nonce)));
    }

    /** The sender's answer to the challenge, inside progress: a candidate if it proves the secret. */
    private void proof(Pending p, Handshake.Proof proof) {
        Handshake.Hello h = p.hello;
        byte[] nonce = p.nonce;
        PeerChallenge c = challenge;
        if (h == null || nonce == null || c == null || p.proven) {
            throw new MalformedMessageException("a PROOF that answers no challenge");
        }
        if (proof.connection() != h.connection()) {
            throw new MalformedMessageException("a PROOF for connection " + proof.connection() + " on connection " + h.connection());
        }
        if (!c.verify(proof.proof(), PeerChallenge.Role.INITIATOR, local.name(), h.epoch(), h.nonce(), nonce)) {
            refuse(p, LinkStatus.Refusal.AUTHENTICATION, "the sender did not prove the shared secret (another secret, or a "
                    + "replayed handshake): give both ends of channel '" + local.name() + "' the same secret");
            return;
        }
        p.proven = true;
        candidate(p);
    }

    /**
     * An authenticated (or, without a secret, a well-formed) sender, inside progress: it becomes the one
     * being accepted unless another sender's link is live. One sender per channel: a sender of another
     * epoch is refused while the link's heartbeat is moving, and takes over only once the link is lost
     * or stalled past {@code link-timeout}; the linked sender itself (its epoch) may always reconnect.
     */
    private void candidate(Pending p) {
        Handshake.Hello h = Objects.requireNonNull(p.hello, "a candidate has its HELLO");
        if (endpoint != null && status.state() == LinkState.CONNECTED && h.epoch() != intake.epoch()) {
            refuse(p, LinkStatus.Refusal.SENDER, "a second sender of channel '" + local.name() + "' (epoch "
                    + Long.toHexString(h.epoch()) + ") is refused: the link from " + status.peer() + " (epoch "
                    + Long.toHexString(intake.epoch()) + ") is live; run one sender per channel");
            return;
        }
        Pending before = accepting;
        if (before != null) {
            Handshake.Hello b = Objects.requireNonNull(before.hello, "accepting has its HELLO");
            if (b.epoch() != h.epoch()) {
                refuse(p, LinkStatus.Refusal.SENDER, "a second sender of channel '" + local.name() + "' (epoch "
                        + Long.toHexString(h.epoch()) + ") is refused: the handshake of epoch " + Long.toHexString(b.epoch())
                        + " from " + before.client + " is being accepted; run one sender per channel");
                return;
            }
            before.deadlineNanos = System.nanoTime(); // the same sender connected again: its older attempt is closed
            pending.add(before);
        }
        pending.remove(p);
        accepting = p;
        acceptDeadlineNanos = System.nanoTime() + settings.connectTimeout().toNanos();
    }

    /** Refuses a waiting connection: counted, logged, answered with why; it is closed on a later pass. */
    private void refuse(Pending p, LinkStatus.Refusal kind, String why) {
        status.refused(kind, why + " (from " + p.client + ")");
        refusals.refused("refusing the sender at " + p.client + ": " + why);
        p.deadlineNanos = Math.min(p.deadlineNanos, System.nanoTime() + REFUSED_LINGER_NANOS); // the refusal reaches it first
        p.refused = true;
        try {
            replies.send(p.endpoint, Handshake.Welcome.refused(why));
        } catch (UcxException ex) {
            log.debug("seqlink UCX channel '{}': the refusal did not reach {}: {}", local.name(), p.client, ex.getMessage());
        }
    }

    /** The handshake being accepted: {@link #completeHandshake} runs only with one, which progress may only replace. */
    private Pending accepted() {
        return Objects.requireNonNull(accepting, "accepting");
    }

    /**
     * Takes the accepted handshake once the previous connection is closed and every receive it started
     * into the landing ring has ended, so no byte of an older connection can land after this one's.
     */
    private int completeHandshake(long now) {
        if (endpoint != null) {
            Handshake.Hello next = accepted().hello;
            lose(next != null && next.epoch() != intake.epoch() ? "another sender (epoch " + Long.toHexString(next.epoch())
                    + ") took over the link, whose heartbeat had stopped" : "the sender connected again");
        }
        if (landing.drain() > 0) {
            if (now - acceptDeadlineNanos >= 0) {
                log.warn("seqlink UCX channel '{}': receives of the lost connection did not end within {}; the sender "
                        + "will connect again", local.name(), settings.connectTimeout());
                Pending late = accepted();
                accepting = null;
                retire(late.endpoint);
                closeEndpoint(late.endpoint, false);
            }
            return 0;
        }
        Pending from = accepted(); // read after lose() and drain(): a handshake during their progress replaced it
        Handshake.Hello h = Objects.requireNonNull(from.hello, "accepting has its HELLO");
        accepting = null;
        generation++;
        endpoint = from.endpoint;
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
            replies.send(from.endpoint, new Handshake.Welcome(Handshake.ACCEPTED, "", received + 1, landing.window(),
                    landing.stride()));
        } catch (UcxException ex) {
            // the sender gave up waiting (its connect-timeout) and closed: its next attempt is taken
            log.info("seqlink UCX channel '{}': the connection from {} ended before its handshake completed ({})", local.name(),
                    from.client, ex.getMessage());
            generation++;
            endpoint = null;
            retire(from.endpoint);
            closeEndpoint(from.endpoint, false);
            return 1;
        }
        status.connected(from.client, epoch, now);
        status.received(received);
        log.info("seqlink UCX channel '{}': sender at {} linked{} (epoch {}, resuming at frame {})", local.name(), from.client,
                challenge != null ? ", authenticated" : " WITHOUT authentication", Long.toHexString(epoch), received + 1);
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
        if (ep != null) {
            retire(ep);
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
            retire(ep);
            close(ep, true);
        }
        return true;
    }

    @Override
    protected void release() {
        generation++;
        close(endpoint, false);
        endpoint = null;
        List<Pending> open = new ArrayList<>(pending);
        if (accepting != null) {
            open.add(accepting);
            accepting = null;
        }
        pending.clear();
        open.forEach(p -> closeEndpoint(p.endpoint, false));
        if (listener != null) {
            listener.close();
        }
    }

    /** An accepted connection waiting for its handshake; link thread only. */
    private static final class Pending {
        final UcpEndpoint endpoint;
        final String client;
        long deadlineNanos;
        Handshake.@Nullable Hello hello;
        byte @Nullable [] nonce;
        boolean proven;
        boolean refused;

        Pending(UcpEndpoint endpoint, String client, long deadlineNanos) {
            this.endpoint = endpoint;
            this.client = client;
            this.deadlineNanos = deadlineNanos;
        }
    }
}
