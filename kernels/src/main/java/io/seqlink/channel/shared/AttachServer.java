package io.seqlink.channel.shared;

import io.seqlink.security.PeerChallenge;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's side of the attach handshake ({@link AttachProtocol}, {@link PeerChallenge} as responder): accepts
 * connections on the channel's socket one at a time on its own thread, refuses what is wrong with a reason and
 * changes nothing then, and gives a seat ({@link ExportSeats#take}) only once the consumer proved the secret. A
 * handshake not done within the share's timeout is cut off by {@link #closeIfOverdue}, called from the liveness
 * thread, so a silent peer holds the socket up for at most that long.
 */
final class AttachServer implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(AttachServer.class);

    /** A handshake in progress and when it must be done. */
    private record Pending(SocketChannel connection, long deadlineNanos) {
    }

    private final String channel;
    private final ServerSocketChannel server;
    private final PeerChallenge challenge;
    private final SharedRegion region;
    private final SharedLayout layout;
    private final ExportSeats seats;
    private final long handshakeNanos;
    private final long stallNanos;
    private final long heartbeatNanos;
    private final AtomicReference<@Nullable Pending> pending = new AtomicReference<>();
    private volatile boolean closed;

    AttachServer(String channel, ServerSocketChannel server, PeerChallenge challenge, SharedRegion region, SharedLayout layout,
            ExportSeats seats, long handshakeNanos, long stallNanos, long heartbeatNanos) {
        this.channel = channel;
        this.server = server;
        this.challenge = challenge;
        this.region = region;
        this.layout = layout;
        this.seats = seats;
        this.handshakeNanos = handshakeNanos;
        this.stallNanos = stallNanos;
        this.heartbeatNanos = heartbeatNanos;
    }

    @Override
    public void run() {
        while (!closed) {
            SocketChannel c;
            try {
                c = server.accept();
            } catch (ClosedChannelException e) {
                return; // the channel closed
            } catch (IOException e) {
                if (!closed) {
                    log.warn("seqlink channel '{}': accepting an attach failed: {}", channel, e.toString());
                }
                continue;
            }
            pending.set(new Pending(c, System.nanoTime() + handshakeNanos));
            boolean seated = false;
            try {
                seated = handshake(c);
            } catch (EOFException e) {
                log.warn("seqlink channel '{}': an attach ended before its handshake did", channel);
            } catch (AttachProtocol.BadMessage e) {
                refuse(c, "malformed handshake: " + e.getMessage());
            } catch (IOException e) {
                log.warn("seqlink channel '{}': an attach failed: {}", channel, closed || !c.isOpen()
                        ? "cut off after the handshake timeout" : e.toString());
            } catch (RuntimeException | LinkageError e) { // a fault here must not end the thread every later attach needs
                log.error("seqlink channel '{}': an attach failed unexpectedly; the channel goes on taking attaches", channel, e);
            } finally {
                pending.set(null);
                if (!seated) {
                    ExportSeats.closeQuietly(c);
                }
            }
        }
    }

    /** The handshake on {@code c}; true once the consumer holds a seat (its connection then belongs to the seat). */
    private boolean handshake(SocketChannel c) throws IOException {
        String peerUser = PeerUser.of(c);
        String me = System.getProperty("user.name");
        if (peerUser != null && !peerUser.equals(me)) {
            refuse(c, "a process of user " + peerUser + " may not attach to a channel of user " + me);
            return false;
        }
        ByteBuffer m = AttachProtocol.receive(c);
        if (AttachProtocol.type(m, AttachProtocol.HELLO) != AttachProtocol.HELLO) {
            throw new AttachProtocol.BadMessage("a REFUSED before any HELLO");
        }
        AttachProtocol.Hello hello = AttachProtocol.readHello(m);
        if (hello.protocol() != SharedLayout.PROTOCOL_VERSION) {
            refuse(c, "protocol version " + hello.protocol() + " asked; this producer speaks version " + SharedLayout.PROTOCOL_VERSION
                    + " (run the same seqlink version in both processes)");
            return false;
        }
        if (!hello.channel().equals(channel)) {
            refuse(c, "this socket serves channel '" + channel + "', not '" + hello.channel() + "'");
            return false;
        }
        if (seats.free() < 0) {
            refuse(c, "all " + seats.count() + " seats of channel '" + channel + "' are taken; raise ChannelShare.seats");
            return false;
        }
        long epoch = region.getAndAdd(SharedLayout.L_EPOCH, 1) + 1;
        byte[] nonce = PeerChallenge.newNonce();
        AttachProtocol.send(c, AttachProtocol.challenge(epoch, nonce,
                challenge.proof(PeerChallenge.Role.RESPONDER, channel, epoch, hello.nonce(), nonce)));
        m = AttachProtocol.receive(c);
        if (AttachProtocol.type(m, AttachProtocol.PROOF) == AttachProtocol.REFUSED) {
            log.warn("seqlink channel '{}': an attaching process refused this producer: {}", channel, AttachProtocol.readRefused(m));
            return false;
        }
        byte[] proof = AttachProtocol.readProof(m);
        if (!challenge.verify(proof, PeerChallenge.Role.INITIATOR, channel, epoch, hello.nonce(), nonce)) {
            refuse(c, "the attaching process's proof does not verify: a wrong secret, or a replayed or altered handshake");
            return false;
        }
        int seat = seats.free();
        if (seat < 0) {
            refuse(c, "all " + seats.count() + " seats of channel '" + channel + "' are taken; raise ChannelShare.seats");
            return false;
        }
        long start = seats.take(seat, epoch);
        try {
            AttachProtocol.send(c, AttachProtocol.accepted(new AttachProtocol.Accepted(seat, epoch, start, SharedLayout.LAYOUT_VERSION,
                    layout.geometry().slots(), layout.geometry().slotBytes(), layout.geometry().stride(), layout.maxBatch(),
                    layout.seats(), layout.regionBytes(), stallNanos, heartbeatNanos)));
            c.configureBlocking(false); // from here on the liveness thread looks for the connection's end without waiting
        } catch (IOException e) {
            seats.drop(seat, epoch, "its connection failed as it attached (" + e + ")");
            return false;
        }
        if (!seats.bind(seat, epoch, c)) {
            return false; // dropped meanwhile
        }
        log.info("seqlink channel '{}': a consumer process attached (seat {}, epoch {}), starting after frame {}", channel, seat,
                epoch, start);
        return true;
    }

    private void refuse(SocketChannel c, String reason) {
        log.warn("seqlink channel '{}': attach refused: {}", channel, reason);
        try {
            AttachProtocol.send(c, AttachProtocol.refused(reason));
        } catch (IOException e) {
            // the peer is gone already: the refusal is logged
        }
    }

    /** Closes a handshake past its deadline (its thread then sees its connection closed). Any thread. */
    void closeIfOverdue(long nowNanos) {
        Pending p = pending.get();
        if (p != null && nowNanos - p.deadlineNanos() > 0) {
            ExportSeats.closeQuietly(p.connection());
        }
    }

    /** Stops accepting: the accepting thread ends. Any thread. */
    void close() {
        closed = true;
        ExportSeats.closeQuietly(server);
        Pending p = pending.get();
        if (p != null) {
            ExportSeats.closeQuietly(p.connection());
        }
    }
}
