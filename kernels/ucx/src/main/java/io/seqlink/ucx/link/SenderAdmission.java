package io.seqlink.ucx.link;

import io.seqlink.security.PeerChallenge;
import io.seqlink.security.SharedSecret;
import io.seqlink.ucx.BridgeSettings;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.slf4j.Logger;

/**
 * Which sender may link to a receiver. It holds the connections waiting for their handshake (at most
 * {@value #MAX_PENDING}, each for {@code connect-timeout}), checks their HELLO, challenges them and
 * verifies their proof ({@link PeerChallenge}) when the bridge has a secret, and picks the one sender to
 * link: one per channel, so a sender of another epoch is refused while the link is live. Every refusal is
 * answered with why, counted in {@link LinkStatus} and logged through {@link RefusalLog}. It also knows the
 * endpoints closed lately, so a late message of one is no protocol error. The facts it needs of the link
 * (its endpoint, the live sender's epoch) come as arguments.
 *
 * <p>Link thread only: the message methods run inside the worker's progress, the others between passes.
 */
final class SenderAdmission {

    /** Connections waiting for their handshake at most; more are rejected until some finish. */
    static final int MAX_PENDING = 16;
    private static final int MAX_RETIRED = 64;
    private static final long REFUSED_LINGER_NANOS = 200_000_000L;

    /** The handshake chosen to link. */
    record Accepted(UcpEndpoint endpoint, String client, Handshake.Hello hello) {
    }

    private final String channel;
    private final long slotBytes;
    private final BridgeSettings settings;
    private final LinkStatus status;
    private final HandshakeReplies replies;
    private final RefusalLog refusals;
    private final Logger log;
    private final @Nullable PeerChallenge challenge;
    private final List<Pending> pending = new ArrayList<>();
    /** Endpoints closed lately: a message still arriving on one is dropped quietly. */
    private final ArrayDeque<UcpEndpoint> retired = new ArrayDeque<>();
    private @Nullable Pending accepting;
    private long acceptDeadlineNanos;

    SenderAdmission(String channel, long slotBytes, BridgeSettings settings, LinkStatus status, HandshakeReplies replies,
            Logger log) {
        this.channel = channel;
        this.slotBytes = slotBytes;
        this.settings = settings;
        this.status = status;
        this.replies = replies;
        this.log = log;
        this.refusals = new RefusalLog(log, channel);
        SharedSecret secret = settings.security().secret();
        this.challenge = secret == null ? null : new PeerChallenge(secret);
        if (challenge != null) {
            // the JDK's first MAC takes a while (provider look-up): once here, not in a sender's connect-timeout
            challenge.proof(PeerChallenge.Role.RESPONDER, channel, 1, PeerChallenge.newNonce(), PeerChallenge.newNonce());
        }
    }

    boolean authenticates() {
        return challenge != null;
    }

    /** Why a connection from {@code client} is rejected before its endpoint is made (counted and logged), or null. */
    @Nullable String rejection(@Nullable InetSocketAddress client) {
        String why = null;
        if (!settings.security().allows(client == null ? null : client.getAddress())) {
            why = "a connection from " + client + ", which is not in allowed-peers";
        } else if (pending.size() >= MAX_PENDING) {
            why = "a connection from " + client + ": " + MAX_PENDING + " connections are waiting for their handshake";
        }
        if (why != null) {
            status.refused(LinkStatus.Refusal.HANDSHAKE, why);
            refusals.refused("refusing " + why);
        }
        return why;
    }

    /** A connection made for a request, waiting for its handshake until {@code connect-timeout} from {@code now}. */
    void admit(UcpEndpoint ep, String client, long now) {
        retired.removeIf(ep::equals); // UCX reuses the handle of an endpoint closed before: this one is not retired
        pending.add(new Pending(ep, client, now + settings.connectTimeout().toNanos()));
    }

    /** The connections whose handshake did not finish in time, and those refused: forgotten and retired, for the caller to close. */
    List<UcpEndpoint> expired(long now) {
        List<UcpEndpoint> out = List.of();
        for (int i = pending.size() - 1; i >= 0; i--) {
            Pending p = pending.get(i);
            if (now - p.deadlineNanos >= 0) {
                if (out.isEmpty()) {
                    out = new ArrayList<>();
                }
                pending.remove(i);
                retire(p.endpoint);
                out.add(p.endpoint);
            }
        }
        return out;
    }

    boolean hasPending() {
        return !pending.isEmpty();
    }

    /** Remembers {@code ep} as closed: a message still arriving on it is dropped quietly. */
    void retire(UcpEndpoint ep) {
        retired.addLast(ep);
        if (retired.size() > MAX_RETIRED) {
            retired.removeFirst();
        }
    }

    boolean isRetired(@Nullable UcpEndpoint ep) {
        for (UcpEndpoint r : retired) {
            if (r.equals(ep)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Inside progress: the connection waiting for its handshake that {@code replyEp} belongs to; null for one
     * refused already or closed lately (dropped quietly); a {@link MalformedMessageException} for a handshake
     * message after the handshake, on the {@code linked} endpoint, or from an endpoint not known.
     */
    @Nullable Pending waiting(int id, @Nullable UcpEndpoint replyEp, @Nullable UcpEndpoint linked) {
        for (Pending p : pending) {
            if (p.endpoint.equals(replyEp)) {
                return p.refused ? null : p;
            }
        }
        if (accepting != null && accepting.endpoint.equals(replyEp)) {
            throw new MalformedMessageException("a handshake message (id " + id + ") after the handshake");
        }
        if (replyEp != null && replyEp.equals(linked)) {
            throw new MalformedMessageException("a handshake message (id " + id + ") on the linked connection");
        }
        if (!isRetired(replyEp)) {
            throw new MalformedMessageException("a handshake message (id " + id + ") from an endpoint not waiting for one");
        }
        return null;
    }

    /**
     * Inside progress: a sender's HELLO, checked; then challenged, or (without a secret) a candidate at once.
     * {@code liveEpoch}: the epoch of the sender whose link is live, 0 when none is.
     */
    void hello(Pending p, Handshake.Hello h, long liveEpoch) {
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
            candidate(p, liveEpoch);
            return;
        }
        if (!h.authenticates()) {
            refuse(p, LinkStatus.Refusal.AUTHENTICATION, "this receiver requires authentication and the sender offers none: "
                    + "give the sender of channel '" + channel + "' the receiver's secret (seqlink.ucx.senders." + channel
                    + ".secret or secret-file; BridgeSettings.withSecret)");
            return;
        }
        byte[] nonce = PeerChallenge.newNonce();
        p.nonce = nonce;
        replies.send(p.endpoint, new Handshake.Challenge(nonce,
                c.proof(PeerChallenge.Role.RESPONDER, channel, h.epoch(), h.nonce(), nonce)));
    }

    /** Inside progress: the sender's answer to the challenge; a candidate if it proves the secret. */
    void proof(Pending p, Handshake.Proof proof, long liveEpoch) {
        Handshake.Hello h = p.hello;
        byte[] nonce = p.nonce;
        PeerChallenge c = challenge;
        if (h == null || nonce == null || c == null || p.proven) {
            throw new MalformedMessageException("a PROOF that answers no challenge");
        }
        if (proof.connection() != h.connection()) {
            throw new MalformedMessageException("a PROOF for connection " + proof.connection() + " on connection " + h.connection());
        }
        if (!c.verify(proof.proof(), PeerChallenge.Role.INITIATOR, channel, h.epoch(), h.nonce(), nonce)) {
            refuse(p, LinkStatus.Refusal.AUTHENTICATION, "the sender did not prove the shared secret (another secret, or a "
                    + "replayed handshake): give both ends of channel '" + channel + "' the same secret");
            return;
        }
        p.proven = true;
        candidate(p, liveEpoch);
    }

    /**
     * An authenticated (or, without a secret, a well-formed) sender: it becomes the one being accepted unless
     * another sender's link is live. One sender per channel: a sender of another epoch is refused while the
     * link's heartbeat is moving ({@code liveEpoch} not 0), and takes over only once the link is lost or
     * stalled past {@code link-timeout}; the linked sender itself (its epoch) may always reconnect.
     */
    private void candidate(Pending p, long liveEpoch) {
        Handshake.Hello h = Objects.requireNonNull(p.hello, "a candidate has its HELLO");
        if (liveEpoch != 0 && h.epoch() != liveEpoch) {
            refuse(p, LinkStatus.Refusal.SENDER, "a second sender of channel '" + channel + "' (epoch "
                    + Long.toHexString(h.epoch()) + ") is refused: the link from " + status.peer() + " (epoch "
                    + Long.toHexString(liveEpoch) + ") is live; run one sender per channel");
            return;
        }
        Pending before = accepting;
        if (before != null) {
            Handshake.Hello b = Objects.requireNonNull(before.hello, "accepting has its HELLO");
            if (b.epoch() != h.epoch()) {
                refuse(p, LinkStatus.Refusal.SENDER, "a second sender of channel '" + channel + "' (epoch "
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
            log.debug("seqlink UCX channel '{}': the refusal did not reach {}: {}", channel, p.client, ex.getMessage());
        }
    }

    private @Nullable String refusal(Handshake.Hello h) {
        if (!h.channel().equals(channel)) {
            return "this receiver carries channel '" + channel + "', the sender sends '" + h.channel()
                    + "': point the sender at the receiver of its channel";
        }
        if (h.slotBytes() > slotBytes) {
            return "the sender's frames are up to " + h.slotBytes() + " B, channel '" + channel + "' here has slots of "
                    + slotBytes + " B: raise slot-size of the receiving channel to at least " + h.slotBytes() + " B";
        }
        return null;
    }

    /** Counts and logs a refused message ({@code what}, from {@code source}). */
    void refusedMessage(int id, String source, String what) {
        status.refused(LinkStatus.Refusal.PROTOCOL, "message " + id + " from " + source + ": " + what);
        refusals.refused("refusing a message (id " + id + ") from " + source + ": " + what);
    }

    /** Drops the connection of {@code from}, waiting or being accepted: it is closed on the next pass, outside progress. */
    void drop(UcpEndpoint from) {
        for (Pending p : pending) {
            if (p.endpoint.equals(from)) {
                p.deadlineNanos = System.nanoTime();
            }
        }
        Pending a = accepting;
        if (a != null && a.endpoint.equals(from)) {
            a.deadlineNanos = System.nanoTime();
            pending.add(a);
            accepting = null;
        }
    }

    /** The address a waiting or accepted connection came from, or null when {@code ep} is neither. */
    @Nullable String clientOf(UcpEndpoint ep) {
        for (Pending p : pending) {
            if (p.endpoint.equals(ep)) {
                return p.client;
            }
        }
        Pending a = accepting;
        return a != null && a.endpoint.equals(ep) ? a.client : null;
    }

    /** The handshake chosen to link, or null. */
    @Nullable Accepted accepted() {
        Pending a = accepting;
        return a == null ? null : new Accepted(a.endpoint, a.client, Objects.requireNonNull(a.hello, "accepting has its HELLO"));
    }

    /** When the accepted handshake must have been taken by. */
    long acceptDeadlineNanos() {
        return acceptDeadlineNanos;
    }

    /** The accepted handshake links now: forgotten here. */
    void taken() {
        accepting = null;
    }

    /** Every endpoint still held (waiting or accepted), forgotten, for the caller to close at release. */
    List<UcpEndpoint> closeAll() {
        List<UcpEndpoint> open = new ArrayList<>();
        pending.forEach(p -> open.add(p.endpoint));
        if (accepting != null) {
            open.add(accepting.endpoint);
            accepting = null;
        }
        pending.clear();
        return open;
    }

    /** A connection waiting for its handshake. */
    static final class Pending {
        private final UcpEndpoint endpoint;
        private final String client;
        private long deadlineNanos;
        private Handshake.@Nullable Hello hello;
        private byte @Nullable [] nonce;
        private boolean proven;
        private boolean refused;

        private Pending(UcpEndpoint endpoint, String client, long deadlineNanos) {
            this.endpoint = endpoint;
            this.client = client;
            this.deadlineNanos = deadlineNanos;
        }
    }
}
