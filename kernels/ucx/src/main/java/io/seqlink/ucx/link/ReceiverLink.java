package io.seqlink.ucx.link;

import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.LinkState;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.UcxCallback;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpListener;
import org.openucx.jucx.ucp.UcpListenerParams;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucs.UcsConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of a link, on its link thread: listens, takes the sender's handshake, and moves
 * landed frames into the local channel. It reads {@code sent_seq} with acquire; every slot up to it
 * is complete (the sender put it before a flush that completed here), so each is checked by its stamp,
 * claimed in the local channel, copied and published (one publish per batch). Its status line
 * (received, consumed, heartbeat) goes back with a put whenever it moved, and at every heartbeat.
 * "Consumed" is the newest link sequence every local consumer acknowledged: the sender reuses a slot
 * only then, which is what makes the link lossless end to end.
 */
public final class ReceiverLink extends LinkLoop {

    private static final Logger log = LoggerFactory.getLogger(ReceiverLink.class);
    private static final int MAX_FRAMES_PER_PASS = 256;

    private final PublishChannel local;
    private final InetSocketAddress listenAddress;
    private final RegisteredRegion landing;
    private final int window;
    private final long stride;
    private final long slotBytes;
    private final OriginTable origins;
    private final List<ConsumerPort> ports = new ArrayList<>();
    private final ByteBuffer[] payloads;
    private final ControlWords control = new ControlWords(LinkLayout.STATUS_BYTES);
    private volatile @Nullable InetSocketAddress bound;
    private volatile boolean stopTaking;

    // link thread only
    private @Nullable UcpListener listener;
    private final ArrayDeque<UcpConnectionRequest> requests = new ArrayDeque<>();
    private final List<Pending> pending = new ArrayList<>();
    private @Nullable UcpEndpoint endpoint;
    private @Nullable UcpRemoteKey senderKey;
    private @Nullable String failure;
    private int generation;
    private long senderStatus;
    private long epoch;
    private long received;
    private long epochBase;
    private long offset;
    private long lastLocal;
    private long reportedReceived = -1;
    private long reportedConsumed = -1;
    private long beat;
    private long lastSenderBeat = -1;
    private long nextStatusNanos;
    private long pendingDeadlineNanos;

    public ReceiverLink(UcpContext context, BridgeSettings settings, PublishChannel local, InetSocketAddress listenAddress,
            RegisteredRegion landing, OriginTable origins) {
        super(context, settings, "seqlink-ucx-receive-" + local.name(), listenAddress.toString());
        this.local = local;
        this.listenAddress = listenAddress;
        this.landing = landing;
        this.window = settings.window();
        this.slotBytes = local.spec().slotBytes();
        this.stride = LinkLayout.strideFor(slotBytes);
        this.origins = origins;
        for (int d : local.consumerDevices()) {
            ports.add(local.consumer(d));
        }
        this.payloads = new ByteBuffer[window];
        ByteBuffer all = landing.view();
        for (int i = 0; i < window; i++) {
            int at = (int) (LinkLayout.LINE + i * stride + LinkLayout.HEADER);
            payloads[i] = all.slice(at, (int) slotBytes);
        }
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
            lose("UCX failed: " + ex.getMessage()); // a put on an endpoint that died under it
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
            pending.forEach(p -> closeQuietly(null, p.endpoint())); // connected, but no handshake came
            pending.clear();
        }
        if (endpoint == null) {
            return work;
        }
        if (failure != null) {
            lose(failure);
            return work + 1;
        }
        work += deliver();
        work += report(now);
        long senderBeat = landing.getAcquire(LinkLayout.SENDER_BEAT);
        if (senderBeat != lastSenderBeat) {
            lastSenderBeat = senderBeat;
            status.peerBeat(now);
            status.stalled(null);
        } else if (now - status.lastPeerBeatNanos() > settings.linkTimeout().toNanos()) {
            status.stalled("the sender sent no heartbeat for " + settings.linkTimeout() + " (link stalled, or the sender hangs)");
        }
        return work;
    }

    private void accept(UcpConnectionRequest request, long now) {
        try {
            int gen = generation;
            UcpEndpoint ep = worker.newEndpoint(new UcpEndpointParams().setConnectionRequest(request).setPeerErrorHandlingMode()
                    .setName(name).setErrorHandler((e, code, message) -> {
                        if (gen == generation && e.equals(endpoint)) {
                            failure = "endpoint error: " + message;
                        }
                    }));
            pending.add(new Pending(ep, String.valueOf(request.getClientAddress())));
            pendingDeadlineNanos = now + settings.connectTimeout().toNanos();
        } catch (RuntimeException ex) {
            log.warn("seqlink UCX channel '{}': accepting a connection failed: {}", local.name(), ex.toString());
        }
    }

    /** The sender's handshake, on the link thread (inside progress). */
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
        pending.remove(from);
        UcpEndpoint ep = from.endpoint();
        String refusal = refusal(h);
        if (refusal != null) {
            log.error("seqlink UCX channel '{}': refusing the sender: {}", local.name(), refusal);
            send(ep, Handshake.encode(Handshake.Welcome.refused(refusal)));
            return;
        }
        if (endpoint != null) {
            lose("a new connection from the sender replaced this one");
        }
        generation++;
        endpoint = ep;
        failure = null;
        senderKey = ep.unpackRemoteKey(Handshake.keyBuffer(h.key()));
        senderStatus = h.statusAddress();
        if (h.epoch() != epoch) {
            if (epoch != 0) {
                log.warn("seqlink UCX channel '{}': the sender restarted (epoch {} after {}); frames it had not sent are gone "
                        + "with it, numbering starts again at {}", local.name(), Long.toHexString(h.epoch()), Long.toHexString(epoch),
                        h.oldest());
            }
            epoch = h.epoch();
            epochBase = h.oldest() - 1; // older frames were confirmed to the sender before: nothing to resend
            received = epochBase;
            offset = lastLocal - epochBase;
        } else if (h.oldest() > received + 1) {
            log.error("seqlink UCX channel '{}': the sender no longer holds frames {}..{}, which never arrived", local.name(),
                    received + 1, h.oldest() - 1);
            offset += received - (h.oldest() - 1);
            received = h.oldest() - 1;
        }
        landing.setRelease(LinkLayout.SENT_SEQ, received); // forget what the lost connection announced
        lastSenderBeat = -1;
        reportedReceived = -1;
        reportedConsumed = -1;
        status.connected(from.client(), epoch, System.nanoTime());
        status.received(received);
        send(ep, Handshake.encode(new Handshake.Welcome(Handshake.ACCEPTED, "", received + 1, window, stride, landing.address(),
                landing.packedKey())));
        log.info("seqlink UCX channel '{}': sender linked (epoch {}, resuming at frame {})", local.name(),
                Long.toHexString(epoch), received + 1);
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

    /** Moves landed frames into the local channel: claim, copy, commit; one publish for the pass. */
    private int deliver() {
        if (stopTaking) {
            return 0;
        }
        long sent = landing.getAcquire(LinkLayout.SENT_SEQ);
        status.remoteStaged(sent);
        int committed = 0;
        while (received < sent && committed < MAX_FRAMES_PER_PASS) {
            long s = received + 1;
            int off = (int) LinkLayout.slotOffset(s, window, stride);
            long stamp = landing.getPlain(off + LinkLayout.STAMP);
            long length = landing.getPlain(off + LinkLayout.LENGTH);
            if (stamp != s || length < 0 || length > slotBytes) {
                lose("frame " + s + " arrived malformed (stamp " + stamp + ", length " + length + "): a protocol error");
                break;
            }
            long seq = local.tryClaim();
            if (seq == ClaimStatus.BATCH_FULL && committed > 0) {
                local.publish();
                committed = 0;
                seq = local.tryClaim();
            }
            if (seq < 0) {
                if (seq == ClaimStatus.CLOSED || seq == ClaimStatus.FAILED) {
                    stopTaking = true;
                    status.finish(LinkState.FAILED, "the local channel '" + local.name() + "' is " + ClaimStatus.describe(seq)
                            + ": frames from the sender are no longer taken");
                }
                break; // back-pressured: the local consumers are behind; try again on the next pass
            }
            origins.record(seq, epoch, s);
            ByteBuffer payload = payloads[(int) ((s - 1) % window)];
            local.buffer().put(0, payload, 0, (int) length);
            local.commit((int) length);
            lastLocal = seq;
            received = s;
            status.addBytes(length);
            committed++;
        }
        if (committed > 0) {
            local.publish();
            status.received(received);
        }
        return committed;
    }

    /** Puts the status line back to the sender when it moved, or at a heartbeat. */
    private int report(long now) {
        long consumed = consumed();
        if (consumed == reportedConsumed && received == reportedReceived && now - nextStatusNanos < 0) {
            return 0;
        }
        int slot = control.claim();
        control.put(slot, LinkLayout.RECEIVED_SEQ, received);
        control.put(slot, LinkLayout.CONSUMED_SEQ, consumed);
        control.put(slot, LinkLayout.RECEIVER_BEAT, ++beat);
        endpoint.putNonBlockingImplicit(control.address(slot), LinkLayout.STATUS_BYTES, senderStatus, senderKey);
        reportedConsumed = consumed;
        reportedReceived = received;
        nextStatusNanos = now + settings.heartbeatInterval().toNanos();
        status.consumed(consumed);
        return 1;
    }

    /** The newest link sequence of this epoch that every live local consumer acknowledged. */
    private long consumed() {
        long ack = Long.MAX_VALUE;
        for (ConsumerPort p : ports) {
            if (p.state() != ConsumerState.DEAD) {
                ack = Math.min(ack, p.acknowledged());
            }
        }
        if (ack == Long.MAX_VALUE) {
            ack = lastLocal;
        }
        return Math.max(epochBase, Math.min(received, ack - offset));
    }

    private void lose(String why) {
        log.warn("seqlink UCX channel '{}': link from the sender lost: {}; waiting for it to reconnect", local.name(), why);
        generation++;
        closeQuietly(senderKey, endpoint);
        senderKey = null;
        endpoint = null;
        failure = null;
        if (status.state() != LinkState.FAILED) {
            status.lost(LinkState.RECONNECTING, why, true);
        }
    }

    private void send(UcpEndpoint ep, ByteBuffer message) {
        ep.sendAmNonBlocking(Handshake.WELCOME_ID, 0, 0, UcxUtils.getAddress(message), message.remaining(), 0, new UcxCallback() {
            @Override
            public void onSuccess(org.openucx.jucx.ucp.UcpRequest request) {
                message.clear(); // keeps the buffer reachable until UCX is done with it
            }
        });
    }

    /** Stops taking frames from the link (what landed stays with the sender, unconfirmed). Any thread. */
    public void stopTaking() {
        stopTaking = true;
    }

    /** Frames published here that the local consumers have not all acknowledged yet. Link thread. */
    private boolean unconfirmed() {
        return endpoint != null && consumed() < received;
    }

    @Override
    protected void progressFailed(UcxException ex) {
        if (endpoint != null && failure == null) {
            failure = "UCX failed: " + ex.getMessage();
        }
    }

    @Override
    protected boolean closing(long now, boolean overdue) {
        stopTaking = true;
        if (!overdue && unconfirmed()) {
            step(now); // keep reporting credits while the local consumers finish what was published
            return false;
        }
        if (endpoint != null) {
            reportedConsumed = -1;
            try {
                report(now); // the last credit
            } catch (UcxException ex) {
                // the sender is gone already; it resends what it never heard of
            }
        }
        return true;
    }

    @Override
    protected void release() {
        closeQuietly(senderKey, endpoint);
        pending.forEach(p -> closeQuietly(null, p.endpoint()));
        pending.clear();
        if (listener != null) {
            listener.close();
        }
    }

    /** An accepted connection waiting for its handshake. */
    private record Pending(UcpEndpoint endpoint, String client) {
    }
}
