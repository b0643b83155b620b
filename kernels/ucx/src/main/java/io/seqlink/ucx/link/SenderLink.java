package io.seqlink.ucx.link;

import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.LinkState;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.UcxCallback;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpConstants;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucs.UcsConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending end of a link, on its link thread: connects to the receiver, handshakes, and carries
 * staged slots of the {@link SendWindow} across as "data, then sequence":
 *
 * <pre>
 *   put slot s..t (header + payload) ──> receiver's landing ring          (implicit puts, no request)
 *   flush(endpoint)                      completes once every put above is complete AT THE RECEIVER
 *   on flush completion: put sent_seq = t ──> receiver's control line     (the receiver reads it with acquire)
 * </pre>
 *
 * One flush is in flight at a time while further slots are already being put, so the wire stays busy.
 * Credits come back in the status line the receiver puts into this side's region; the window reuses
 * a slot only when the receiver confirmed it. A lost link (endpoint error, or the receiver's heartbeat
 * silent for {@code linkTimeout}) is closed and opened again with a backoff; the handshake tells where
 * to resume, and what was not confirmed is put again.
 */
public final class SenderLink extends LinkLoop {

    private static final Logger log = LoggerFactory.getLogger(SenderLink.class);
    private static final int MAX_PUTS_PER_PASS = 64;

    private enum Phase { IDLE, HANDSHAKE, CONNECTED }

    private final String channel;
    private final InetSocketAddress peer;
    private final SendWindow window;
    private final RegisteredRegion region;
    private final long epoch;
    private final ControlWords control = new ControlWords(8);

    // link thread only
    private Phase phase = Phase.IDLE;
    private int generation;
    private @Nullable UcpEndpoint endpoint;
    private @Nullable UcpRemoteKey key;
    private @Nullable ByteBuffer hello;
    private Handshake.@Nullable Welcome welcome;
    private @Nullable String failure;
    private boolean everConnected;
    private long remoteRegion;
    private int remoteWindow;
    private long remoteStride;
    private long remoteReceived;
    private long transmitted;
    private long announced;
    private long flushTarget;
    private boolean flushInFlight;
    private long lastBeat = -1;
    private long beat;
    private long nextBeatNanos;
    private long deadlineNanos;
    private long retryAtNanos;
    private long backoffNanos;
    private volatile boolean reconnectRequested;

    public SenderLink(UcpContext context, BridgeSettings settings, String channel, InetSocketAddress peer, SendWindow window,
            long epoch) {
        super(context, settings, "seqlink-ucx-send-" + channel, peer.toString());
        this.channel = channel;
        this.peer = peer;
        this.window = window;
        this.region = window.region();
        this.epoch = epoch;
        this.backoffNanos = settings.reconnectMin().toNanos();
    }

    @Override
    protected void open(UcpWorker w) {
        w.setAmRecvHandler(Handshake.WELCOME_ID, (headerAddress, headerSize, data, replyEp) -> {
            if (data.isDataValid()) {
                welcome = Handshake.decodeWelcome(UcxUtils.getByteBufferView(data.getDataAddress(), (int) data.getLength()));
            }
            return UcsConstants.STATUS.UCS_OK;
        });
    }

    @Override
    protected int step(long now) {
        try {
            return advance(now);
        } catch (UcxException ex) {
            lose("UCX failed: " + ex.getMessage(), now); // a put or flush on an endpoint that died under it
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
        int gen = ++generation;
        failure = null;
        welcome = null;
        // a restarted receiver starts from the credit: forget the status a previous one left here
        region.setRelease(LinkLayout.RECEIVED_SEQ, window.credited());
        region.setRelease(LinkLayout.CONSUMED_SEQ, window.credited());
        try {
            endpoint = worker.newEndpoint(new UcpEndpointParams().setSocketAddress(peer).setPeerErrorHandlingMode()
                    .setName(name).setErrorHandler((ep, code, message) -> fail(gen, "endpoint error: " + message)));
            hello = Handshake.encode(new Handshake.Hello(channel, epoch, window.window(), window.slotBytes(),
                    window.credited() + 1, window.staged(), region.address(), region.packedKey()));
            endpoint.sendAmNonBlocking(Handshake.HELLO_ID, 0, 0, UcxUtils.getAddress(hello), hello.remaining(),
                    UcpConstants.UCP_AM_SEND_FLAG_REPLY, callback(gen, "handshake"));
            phase = Phase.HANDSHAKE;
            deadlineNanos = now + settings.connectTimeout().toNanos();
        } catch (RuntimeException ex) {
            lose("connecting to " + peer + " failed: " + ex.getMessage(), now);
        }
    }

    private void accept(Handshake.Welcome w, long now) {
        if (w.status() != Handshake.ACCEPTED) {
            log.error("seqlink UCX channel '{}': the receiver at {} refused the link: {}", channel, peer, w.reason());
            drop();
            status.lost(LinkState.REFUSED, "the receiver refused the link: " + w.reason(), false);
            backoffNanos = settings.reconnectMax().toNanos();
            retryAtNanos = now + backoffNanos;
            return;
        }
        long resume = w.resumeFrom();
        if (resume < window.credited() + 1 || resume > window.staged() + 1 || w.stride() < LinkLayout.HEADER + window.slotBytes()) {
            lose("the receiver's handshake does not fit this sender (resume at " + resume + ", held "
                    + (window.credited() + 1) + ".." + window.staged() + ", its slot stride " + w.stride() + " B)", now);
            return;
        }
        key = endpoint.unpackRemoteKey(Handshake.keyBuffer(w.key()));
        remoteRegion = w.regionAddress();
        remoteWindow = w.window();
        remoteStride = w.stride();
        remoteReceived = resume - 1;
        if (transmitted >= resume) {
            status.addResent(transmitted - resume + 1);
        }
        transmitted = resume - 1;
        announced = resume - 1;
        flushInFlight = false;
        lastBeat = -1;
        phase = Phase.CONNECTED;
        backoffNanos = settings.reconnectMin().toNanos();
        status.connected(peer.toString(), epoch, now);
        status.sent(announced);
        log.info("seqlink UCX channel '{}': linked to {} (resuming at frame {}, window {})", channel, peer, resume, remoteWindow);
        everConnected = true;
    }

    private int connected(long now) {
        if (reconnectRequested) {
            reconnectRequested = false;
            lose("a reconnect was asked for", now);
            return 1;
        }
        if (failure != null) {
            lose(failure, now);
            return 1;
        }
        int work = readStatus(now);
        if (phase != Phase.CONNECTED) {
            return work;
        }
        work += transmit();
        if (now - nextBeatNanos >= 0) {
            nextBeatNanos = now + settings.heartbeatInterval().toNanos();
            putWord(LinkLayout.SENDER_BEAT, ++beat);
        }
        return work;
    }

    /** Credits and the receiver's heartbeat, from the status line it puts here. */
    private int readStatus(long now) {
        long received = region.getAcquire(LinkLayout.RECEIVED_SEQ);
        long consumed = region.getAcquire(LinkLayout.CONSUMED_SEQ);
        long peerBeat = region.getAcquire(LinkLayout.RECEIVER_BEAT);
        int work = 0;
        if (received > remoteReceived) {
            remoteReceived = Math.min(received, announced);
            status.received(remoteReceived);
            work++;
        }
        if (consumed > window.credited()) {
            window.credit(Math.min(consumed, remoteReceived));
            status.consumed(window.credited());
            work++;
        }
        if (peerBeat != lastBeat) {
            lastBeat = peerBeat;
            status.peerBeat(now);
            status.stalled(null);
        } else if (now - status.lastPeerBeatNanos() > settings.linkTimeout().toNanos()) {
            status.stalled("the receiver at " + peer + " sent no heartbeat for " + settings.linkTimeout()
                    + " (link stalled, or the receiver hangs)");
        }
        return work;
    }

    private int transmit() {
        long limit = Math.min(window.staged(), remoteReceived + remoteWindow);
        int puts = 0;
        while (transmitted < limit && puts < MAX_PUTS_PER_PASS) {
            long s = transmitted + 1;
            long bytes = window.wireBytes(s);
            endpoint.putNonBlockingImplicit(region.address() + window.slotOffset(s), bytes,
                    remoteRegion + LinkLayout.slotOffset(s, remoteWindow, remoteStride), key);
            status.addBytes(bytes - LinkLayout.HEADER);
            transmitted = s;
            puts++;
        }
        if (!flushInFlight && transmitted > announced) {
            flushTarget = transmitted;
            flushInFlight = true;
            int gen = generation;
            endpoint.flushNonBlocking(new UcxCallback() {
                @Override
                public void onSuccess(UcpRequest request) {
                    if (gen == generation && phase == Phase.CONNECTED) {
                        flushInFlight = false;
                        announced = flushTarget;
                        try {
                            putWord(LinkLayout.SENT_SEQ, announced); // data complete at the receiver: now the sequence
                        } catch (UcxException ex) {
                            fail(gen, "announcing frame " + announced + " failed: " + ex.getMessage());
                        }
                        status.sent(announced);
                    }
                }

                @Override
                public void onError(int code, String message) {
                    fail(gen, "flush failed: " + message);
                }
            });
            puts++;
        }
        return puts;
    }

    private void putWord(int offset, long value) {
        int slot = control.claim();
        control.put(slot, 0, value);
        endpoint.putNonBlockingImplicit(control.address(slot), 8, remoteRegion + offset, key);
    }

    private void lose(String why, long now) {
        boolean wasConnected = phase == Phase.CONNECTED;
        drop();
        if (wasConnected) {
            log.warn("seqlink UCX channel '{}': link to {} lost: {}; reconnecting", channel, peer, why);
        } else {
            log.debug("seqlink UCX channel '{}': connecting to {} failed: {}", channel, peer, why);
        }
        status.lost(everConnected ? LinkState.RECONNECTING : LinkState.CONNECTING, why, wasConnected);
        retryAtNanos = now + backoffNanos;
        backoffNanos = Math.min(backoffNanos * 2, settings.reconnectMax().toNanos());
    }

    private void drop() {
        generation++;
        closeQuietly(key, endpoint);
        key = null;
        endpoint = null;
        hello = null;
        phase = Phase.IDLE;
        flushInFlight = false;
    }

    private void fail(int gen, String why) {
        if (gen == generation && failure == null) {
            failure = why;
        }
    }

    private UcxCallback callback(int gen, String what) {
        return new UcxCallback() {
            @Override
            public void onError(int code, String message) {
                fail(gen, what + " failed: " + message);
            }
        };
    }

    /** Any thread: closes the link and opens it again (after a network change, say); frames resume where confirmed. */
    public void reconnect() {
        reconnectRequested = true;
    }

    @Override
    protected void progressFailed(UcxException ex) {
        fail(generation, "UCX failed: " + ex.getMessage());
    }

    @Override
    protected boolean closing(long now, boolean overdue) {
        if (!overdue && window.credited() < window.staged()) {
            step(now); // keep carrying (and reconnecting for) what was staged until the receiver confirmed it
            return false;
        }
        return true;
    }

    @Override
    protected void release() {
        drop();
    }
}
