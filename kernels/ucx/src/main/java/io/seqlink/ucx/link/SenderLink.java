package io.seqlink.ucx.link;

import io.seqlink.security.PeerChallenge;
import io.seqlink.security.SharedSecret;
import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.LinkState;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpAmData;
import org.openucx.jucx.ucp.UcpConstants;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucs.UcsConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending end of a link, on its link thread: connects to the receiver, handshakes, and sends
 * staged slots of the {@link SendWindow} as {@link LinkMessages#FRAMES} messages, a batch of
 * consecutive slots per message (whatever is staged when the link thread looks, up to
 * {@value #MAX_BATCH_FRAMES} frames or {@value #MAX_BATCH_BYTES} bytes, never across either ring's
 * end). UCX sends a small batch eagerly and a large one by rendezvous (the receiver pulls it into its
 * landing ring); either way the receiver has the bytes only once its own UCX call completed.
 *
 * <p>Flow control: frame {@code s} is sent only while {@code s <= received + window} (its landing slot
 * was published at the receiver), and its slot in the send window is handed back only once the
 * receiver's consumers acknowledged it and no send reading it is in flight. A lost link (an endpoint
 * error, a failed send, the handshake unanswered) is closed at once and opened again with a backoff;
 * an orderly end (a reconnect asked for, a close) says BYE after the frames already sent and closes
 * with a flush. The handshake tells where to resume; what was not confirmed is sent again.
 */
public final class SenderLink extends LinkLoop {

    private static final Logger log = LoggerFactory.getLogger(SenderLink.class);
    private static final int MAX_BATCH_FRAMES = 32;
    private static final long MAX_BATCH_BYTES = 256 << 10;
    private static final int MAX_BATCHES_PER_PASS = 16;

    private enum Phase { IDLE, HANDSHAKE, CONNECTED }

    private final String channel;
    private final InetSocketAddress peer;
    private final SendWindow window;
    private final RegisteredRegion region;
    private final long epoch;
    private final SendsInFlight sends;
    private final MessageHeaders control = new MessageHeaders(16);
    private final String stallMessage;
    private final @Nullable PeerChallenge challenge;
    private volatile boolean reconnectRequested;
    private volatile boolean abortRequested;

    // link thread only
    private Phase phase = Phase.IDLE;
    private long generation;
    private long connection;
    private @Nullable UcpEndpoint endpoint;
    private @Nullable ByteBuffer hello;
    private @Nullable UcpRequest helloSend;
    private Handshake.@Nullable Welcome welcome;
    private Handshake.@Nullable Challenge challenged;
    private byte[] nonce = new byte[0];
    private @Nullable ByteBuffer proofMessage;
    private @Nullable UcpRequest proofSend;
    private @Nullable String failure;
    private long bye;
    private boolean everConnected;
    private int remoteWindow;
    private long remoteReceived;
    private long remoteConsumed;
    private long remoteBeat = -1;
    private long lastBeat = -1;
    private long transmitted;
    private long beat;
    private long nextBeatNanos;
    private long deadlineNanos;
    private long retryAtNanos;
    private long backoffNanos;

    public SenderLink(UcpContext context, BridgeSettings settings, String channel, InetSocketAddress peer,
            SendWindow window, long epoch) {
        super(context, settings, "seqlink-ucx-send-" + channel, peer.toString());
        this.channel = channel;
        this.peer = peer;
        this.window = window;
        this.region = window.region();
        this.epoch = epoch;
        this.sends = new SendsInFlight(window.window());
        this.backoffNanos = settings.reconnectMin().toNanos();
        this.stallMessage = "the receiver at " + peer + " sent no heartbeat for " + settings.linkTimeout()
                + " (link stalled, or the receiver hangs)";
        SharedSecret secret = settings.security().secret();
        this.challenge = secret == null ? null : new PeerChallenge(secret);
        if (challenge != null) {
            // the JDK's first MAC takes a while (provider look-up): once here, not in the first handshake's connect-timeout
            challenge.proof(PeerChallenge.Role.INITIATOR, channel, epoch, PeerChallenge.newNonce(), PeerChallenge.newNonce());
        }
        if (challenge == null) {
            log.warn("seqlink UCX channel '{}': the sender to {} links WITHOUT authentication (allow-unauthenticated): it "
                    + "carries frames to whoever answers at that address", channel, peer);
        }
    }

    @Override
    protected void open(UcpWorker w) {
        w.setAmRecvHandler(Handshake.WELCOME_ID, guard(Handshake.WELCOME_ID, (headerAddress, headerSize, data, replyEp) -> {
            if (phase == Phase.HANDSHAKE) {
                welcome = Handshake.decodeWelcome(body(data, "WELCOME"));
            }
        }));
        w.setAmRecvHandler(Handshake.CHALLENGE_ID, guard(Handshake.CHALLENGE_ID, (headerAddress, headerSize, data, replyEp) -> {
            if (phase == Phase.HANDSHAKE) {
                if (challenged != null) {
                    throw new MalformedMessageException("a second CHALLENGE on one connection");
                }
                challenged = Handshake.decodeChallenge(body(data, "CHALLENGE"));
            }
        }));
        w.setAmRecvHandler(LinkMessages.STATUS, guard(LinkMessages.STATUS, (headerAddress, headerSize, data, replyEp) -> {
            ByteBuffer h = LinkMessages.header(LinkMessages.STATUS, headerAddress, headerSize);
            if (phase == Phase.CONNECTED && h.getLong(0) == connection) {
                // within a connection the receiver's counters only grow: keep the maximum whatever the arrival order
                remoteReceived = Math.max(remoteReceived, Math.min(h.getLong(8), transmitted));
                remoteConsumed = Math.max(remoteConsumed, Math.min(h.getLong(16), remoteReceived));
                remoteBeat = h.getLong(24);
            }
        }));
        w.setAmRecvHandler(LinkMessages.BYE, guard(LinkMessages.BYE, (headerAddress, headerSize, data, replyEp) -> {
            ByteBuffer h = LinkMessages.header(LinkMessages.BYE, headerAddress, headerSize);
            if (h.getLong(0) == connection) {
                bye = h.getLong(8);
            }
        }));
    }

    /** The data of a handshake message, which is eager (a few dozen bytes) or malformed. */
    private static ByteBuffer body(UcpAmData data, String what) {
        if (!data.isDataValid() || data.getLength() > 1 << 16) {
            throw new MalformedMessageException("a " + what + " of " + data.getLength() + " B sent by rendezvous");
        }
        return UcxUtils.getByteBufferView(data.getDataAddress(), (int) data.getLength());
    }

    @Override
    protected void refuseMessage(int id, @Nullable UcpEndpoint from, RuntimeException why) {
        String what = (why instanceof MalformedMessageException ? "" : "handling it failed: ") + why.getMessage();
        status.refused(LinkStatus.Refusal.PROTOCOL, "message " + id + " from the receiver at " + peer + ": " + what);
        log.warn("seqlink UCX channel '{}': refusing a message (id {}) from the receiver at {}: {}", channel, id, peer, what);
        fail(generation, "a protocol error: " + what);
    }

    @Override
    protected int step(long now) {
        try {
            return advance(now);
        } catch (UcxException ex) {
            lose("UCX failed: " + ex.getMessage(), now); // a send on an endpoint that died under it
            return 1;
        }
    }

    private int advance(long now) {
        switch (phase) {
            case IDLE -> {
                if (now - retryAtNanos >= 0) {
                    connect(now);
                    return 1;
                }
                return 0;
            }
            case HANDSHAKE -> {
                if (failure == null && helloSend != null && helloSend.isCompleted()
                        && helloSend.getStatus() != UcsConstants.STATUS.UCS_OK) {
                    failure = "the handshake could not be sent (" + UcxStatus.name(helloSend.getStatus()) + ")";
                }
                if (failure == null && challenged != null && proofSend == null) {
                    answer(challenged, now);
                    return 1;
                }
                if (failure != null) {
                    lose(failure, now);
                } else if (welcome != null) {
                    accept(welcome, now);
                } else if (now - deadlineNanos >= 0) {
                    lose("the receiver at " + peer + " did not answer the handshake within " + settings.connectTimeout(), now);
                }
                return 1;
            }
            default -> {
                return connected(now);
            }
        }
    }

    private void connect(long now) {
        long gen = ++generation;
        connection = epoch + gen; // unique per connection: the receiver ignores messages of any other
        failure = null;
        welcome = null;
        challenged = null;
        proofMessage = null;
        proofSend = null;
        nonce = challenge == null ? new byte[0] : PeerChallenge.newNonce();
        bye = 0;
        try {
            endpoint = worker().newEndpoint(new UcpEndpointParams().setSocketAddress(peer).setPeerErrorHandlingMode()
                    .setName(name).setErrorHandler((ep, code, message) -> fail(gen, "endpoint error: " + message)));
            hello = Handshake.encode(new Handshake.Hello(channel, epoch, connection, window.window(), window.slotBytes(),
                    window.credited() + 1, window.staged(), nonce));
            helloSend = endpoint.sendAmNonBlocking(Handshake.HELLO_ID, 0, 0, UcxUtils.getAddress(hello), hello.remaining(),
                    UcpConstants.UCP_AM_SEND_FLAG_REPLY, null);
            phase = Phase.HANDSHAKE;
            deadlineNanos = now + settings.connectTimeout().toNanos();
        } catch (RuntimeException ex) {
            lose("connecting to " + peer + " failed: " + ex.getMessage(), now);
        }
    }

    /** The receiver's challenge: its proof checked, this sender's sent (on the link thread, outside progress). */
    private void answer(Handshake.Challenge c, long now) {
        PeerChallenge mine = challenge;
        if (mine == null) {
            refused(LinkStatus.Refusal.AUTHENTICATION, "the receiver requires authentication and this sender has no secret: "
                    + "set seqlink.ucx.senders." + channel + ".secret or secret-file (BridgeSettings.withSecret) to the "
                    + "receiver's secret", now);
            return;
        }
        if (!mine.verify(c.proof(), PeerChallenge.Role.RESPONDER, channel, epoch, nonce, c.nonce())) {
            refused(LinkStatus.Refusal.AUTHENTICATION, "the receiver at " + peer + " did not prove the shared secret: give both "
                    + "ends of channel '" + channel + "' the same secret (or check that " + peer + " is its receiver)", now);
            return;
        }
        ByteBuffer message = Handshake.encode(new Handshake.Proof(connection,
                mine.proof(PeerChallenge.Role.INITIATOR, channel, epoch, nonce, c.nonce())));
        proofMessage = message;
        proofSend = liveEndpoint().sendAmNonBlocking(Handshake.PROOF_ID, 0, 0, UcxUtils.getAddress(message), message.remaining(),
                UcpConstants.UCP_AM_SEND_FLAG_REPLY, null);
    }

    /** Ends this attempt as refused ({@code why}, counted as {@code kind}) and tries again after the longest backoff. */
    private void refused(LinkStatus.Refusal kind, String why, long now) {
        status.refused(kind, why);
        log.error("seqlink UCX channel '{}': {}", channel, why);
        drop(false);
        status.lost(LinkState.REFUSED, why, false);
        backoffNanos = settings.reconnectMax().toNanos();
        retryAtNanos = now + backoffNanos;
    }

    private void accept(Handshake.Welcome w, long now) {
        if (w.status() != Handshake.ACCEPTED) {
            log.error("seqlink UCX channel '{}': the receiver at {} refused the link: {}", channel, peer, w.reason());
            drop(false);
            status.lost(LinkState.REFUSED, "the receiver refused the link: " + w.reason(), false);
            backoffNanos = settings.reconnectMax().toNanos();
            retryAtNanos = now + backoffNanos;
            return;
        }
        if (challenge != null && proofSend == null) {
            refused(LinkStatus.Refusal.AUTHENTICATION, "the receiver at " + peer + " accepted the link without authenticating "
                    + "(it has no secret): configure the same secret on the receiver of channel '" + channel + "'", now);
            return;
        }
        long resume = w.resumeFrom();
        if (resume < window.credited() + 1 || resume > window.staged() + 1 || w.stride() != window.stride() || w.window() < 1) {
            lose("the receiver's handshake does not fit this sender (resume at " + resume + ", held "
                    + (window.credited() + 1) + ".." + window.staged() + ", its slot stride " + w.stride() + " B, this side's "
                    + window.stride() + " B)", now);
            return;
        }
        remoteWindow = w.window();
        remoteReceived = resume - 1;
        remoteConsumed = window.credited();
        if (transmitted >= resume) {
            status.addResent(transmitted - resume + 1);
        }
        transmitted = resume - 1;
        lastBeat = -1;
        remoteBeat = -1;
        phase = Phase.CONNECTED;
        backoffNanos = settings.reconnectMin().toNanos();
        status.connected(peer.toString(), epoch, now);
        status.sent(transmitted);
        log.info("seqlink UCX channel '{}': linked to {} (resuming at frame {}, window {})", channel, peer, resume, remoteWindow);
        everConnected = true;
    }

    /** The connection's endpoint: made before the handshake, cleared only by {@link #drop}, which ends {@code CONNECTED}. */
    private UcpEndpoint liveEndpoint() {
        return Objects.requireNonNull(endpoint, "a connected link has its endpoint");
    }

    private int connected(long now) {
        if (abortRequested) {
            abortRequested = false;
            lose("an abrupt reset was asked for", now);
            return 1;
        }
        if (reconnectRequested) {
            reconnectRequested = false;
            log.info("seqlink UCX channel '{}': reconnecting to {} as asked", channel, peer);
            leave(LinkMessages.BYE_RECONNECTING, "a reconnect was asked for", now);
            return 1;
        }
        if (bye != 0) {
            log.info("seqlink UCX channel '{}': the receiver at {} closed the link{}; reconnecting", channel, peer,
                    bye == LinkMessages.BYE_RECONNECTING ? " to reconnect" : "");
            leave(0, "the receiver closed the link", now);
            return 1;
        }
        int work = sends.reap();
        int failed = sends.takeFailure();
        if (failed != UcsConstants.STATUS.UCS_OK && failure == null) {
            failure = "sending frames failed (" + UcxStatus.name(failed) + ")";
        }
        if (failure != null) {
            lose(failure, now);
            return 1;
        }
        work += readStatus(now);
        work += transmit();
        if (now - nextBeatNanos >= 0 && LinkMessages.sendControl(liveEndpoint(), control, LinkMessages.BEAT, connection, ++beat,
                window.staged(), 0)) {
            nextBeatNanos = now + settings.heartbeatInterval().toNanos();
        }
        return work;
    }

    /** Credits and the receiver's heartbeat, from its latest STATUS messages. */
    private int readStatus(long now) {
        int work = 0;
        if (remoteReceived != status.received()) {
            status.received(remoteReceived);
            work++;
        }
        long reusable = sends.reusableThrough(remoteConsumed);
        if (reusable > window.credited()) {
            window.credit(reusable);
            status.consumed(window.credited());
            work++;
        }
        if (remoteBeat != lastBeat) {
            lastBeat = remoteBeat;
            status.peerBeat(now);
            status.stalled(null);
        } else if (now - status.lastPeerBeatNanos() > settings.linkTimeout().toNanos()) {
            status.stalled(stallMessage); // a no-op unless connected: the message is built once
        }
        return work;
    }

    private int transmit() {
        long limit = Math.min(window.staged(), remoteReceived + remoteWindow);
        int batches = 0;
        while (transmitted < limit && batches < MAX_BATCHES_PER_PASS && !sends.full()) {
            long first = transmitted + 1;
            long last = Math.min(Math.min(limit, first + MAX_BATCH_FRAMES - 1),
                    Math.min(LinkLayout.lastBeforeWrap(first, window.window()), LinkLayout.lastBeforeWrap(first, remoteWindow)));
            long stride = window.stride();
            while (last > first && (last - first) * stride + window.wireBytes(last) > MAX_BATCH_BYTES) {
                last--;
            }
            long bytes = (last - first) * stride + window.wireBytes(last);
            sends.send(liveEndpoint(), connection, first, last, region.address() + window.slotOffset(first), bytes);
            for (long s = first; s <= last; s++) {
                status.addBytes(window.wireBytes(s) - LinkLayout.HEADER);
            }
            transmitted = last;
            batches++;
        }
        if (batches > 0) {
            status.sent(transmitted);
        }
        return batches;
    }

    /** A lost link: closed at once, opened again after the backoff. */
    private void lose(String why, long now) {
        boolean wasConnected = phase == Phase.CONNECTED;
        drop(false);
        if (wasConnected) {
            log.warn("seqlink UCX channel '{}': link to {} lost: {}; reconnecting", channel, peer, why);
        } else {
            log.debug("seqlink UCX channel '{}': connecting to {} failed: {}", channel, peer, why);
        }
        status.lost(everConnected ? LinkState.RECONNECTING : LinkState.CONNECTING, why, wasConnected);
        retryAtNanos = now + backoffNanos;
        backoffNanos = Math.min(backoffNanos * 2, settings.reconnectMax().toNanos());
    }

    /**
     * An orderly end of the connection: no frame is sent after this; BYE ({@code reason}, 0 for none)
     * follows the frames already sent on the same endpoint, then the close flushes them all. Opened
     * again at once.
     */
    private void leave(long reason, String why, long now) {
        if (reason != 0) {
            LinkMessages.sendControl(liveEndpoint(), control, LinkMessages.BYE, connection, reason, 0, 0);
        }
        drop(true);
        status.lost(LinkState.RECONNECTING, why, true);
        retryAtNanos = now;
    }

    /** Closes the endpoint (flushing first, or at once) and forgets the connection. */
    private void drop(boolean flush) {
        generation++;
        UcpEndpoint ep = endpoint;
        endpoint = null;
        phase = Phase.IDLE;
        closeEndpoint(ep, flush);
        sends.clear(); // the close completed every send on the endpoint, or it timed out: a late send of it is ignored
        control.clear();
        hello = null;
        helloSend = null;
        proofMessage = null;
        proofSend = null;
        challenged = null;
    }

    private void fail(long gen, String why) {
        if (gen == generation && failure == null) {
            failure = why;
        }
    }

    /** Any thread: closes the link in order and opens it again (after a network change, say); frames resume where confirmed. */
    public void reconnect() {
        reconnectRequested = true;
    }

    /**
     * Any thread: drops the link the way a failure does, at once and without a goodbye, with whatever
     * is in flight cancelled; it is opened again after the backoff and frames resume where confirmed.
     * For tests of the failure path (an operator wants {@link #reconnect()}).
     */
    public void dropAbruptly() {
        abortRequested = true;
    }

    @Override
    protected void progressFailed(RuntimeException ex) {
        fail(generation, "UCX failed: " + ex.getMessage());
    }

    @Override
    protected boolean closing(long now, boolean overdue) {
        if (!overdue && window.credited() < window.staged()) {
            step(now); // keep carrying (and reconnecting for) what was staged until the receiver confirmed it
            return false;
        }
        if (phase == Phase.CONNECTED) {
            sends.reap();
            readStatus(now);
            LinkMessages.sendControl(liveEndpoint(), control, LinkMessages.BYE, connection, LinkMessages.BYE_CLOSING, 0, 0);
            drop(true);
        }
        return true;
    }

    @Override
    protected void release() {
        drop(false);
    }
}
