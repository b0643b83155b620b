package io.seqlink.ucx;

import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.ucx.link.LinkLayout;
import io.seqlink.ucx.link.LinkStatus;
import io.seqlink.ucx.link.RegisteredRegion;
import io.seqlink.ucx.link.SendWindow;
import io.seqlink.ucx.link.SenderLink;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import org.openucx.jucx.ucp.UcpContext;

/**
 * The producer host's end: takes every frame of one consumer port of a local channel (a consumer
 * device configured for the bridge) and carries it to the {@link ReceivingBridge} of the same channel
 * on another host.
 *
 * <pre>
 *   producer ── PublishChannel (local) ── ConsumerPort(d) ──> listener: copy into SendWindow slot
 *                                                              │ (waits here while the window is full)
 *                                         link thread: FRAMES message (a batch of slots) ──> receiver
 *                                                      &lt;── STATUS message: received, consumed (credit), heartbeat
 * </pre>
 *
 * The listener acknowledges a frame to the local channel once it is in the window, which holds it
 * until the receiver's consumers have acknowledged it; while the window is full the listener waits, so
 * the local channel backs up and its producer is back-pressured ({@code lossless}) or laps the bridge's
 * consumer by the local rules ({@code latest}: the port skips and counts lapped frames, validating
 * what it read after the copy). The listener returns promptly when the bridge closes or its thread is
 * interrupted, and the frame then stays in the local channel (held, not acknowledged).
 *
 * <p>Threads: see {@link UcxBridge}; the listener runs on the port's poller (the device loop, or the port's
 * listener thread once it waits for credit), the link on its own thread.
 */
public final class SendingBridge implements UcxBridge {

    /** One delivery, then the error handler refuses: the port holds the frame and offers it again a second later. */
    private static final RetryPolicy HOLD = new RetryPolicy(1, Duration.ZERO, 1.0, Duration.ofSeconds(1));

    private final PublishChannel channel;
    private final ConsumerPort port;
    private final RegisteredRegion region;
    private final SendWindow window;
    private final SenderLink link;
    private final CloseOnce closing = new CloseOnce();

    SendingBridge(UcpContext context, PublishChannel channel, int consumerDevice, InetSocketAddress receiver,
            BridgeSettings settings) {
        this.channel = channel;
        this.port = channel.consumer(consumerDevice);
        if (port.subscribed()) {
            throw new IllegalStateException("consumer device " + consumerDevice + " of channel '" + channel.name()
                    + "' has a listener already; give the bridge a consumer device of its own (add one to the channel's "
                    + "consumers and name it in the bridge's consumer-device)");
        }
        long slotBytes = channel.spec().slotBytes();
        this.region = RegisteredRegion.allocate(context, LinkLayout.regionBytes(settings.window(), LinkLayout.strideFor(slotBytes)));
        try {
            this.window = new SendWindow(region, settings.window(), slotBytes);
            long epoch = new SplittableRandom().nextLong() | 1; // never 0, the receiver's "none yet"
            this.link = new SenderLink(context, settings, channel.name(), receiver, window, epoch);
            link.start(settings.connectTimeout());
        } catch (RuntimeException ex) {
            region.close();
            throw ex;
        }
        port.retryPolicy(HOLD).errorHandler((frame, cause) -> {
            throw cause; // refuse: the frame stays in the channel, unacknowledged
        }).subscribe(this::stage);
    }

    private void stage(Frame frame) {
        if (window.stage(frame) == SendWindow.CLOSED) {
            throw new BridgeClosedException("the UCX bridge of channel '" + channel.name() + "' is closed (or its thread "
                    + "was interrupted): frame " + frame.sequence() + " stays in the local channel");
        }
    }

    @Override
    public String channel() {
        return channel.name();
    }

    @Override
    public BridgeSnapshot.Role role() {
        return BridgeSnapshot.Role.SEND;
    }

    @Override
    public LinkState state() {
        return link.status().state();
    }

    /**
     * Closes the link in order (a goodbye after the frames already sent, then a flushing close, at most
     * {@code connect-timeout}) and opens it again, resuming after the last frame the receiver published:
     * nothing is lost or carried twice (an operator's action after a network change). Any thread.
     */
    public void reconnect() {
        link.reconnect();
    }

    /** Drops the link as a failure would (at once, no goodbye, sends in flight cancelled): for tests of that path. */
    void dropLinkAbruptly() {
        link.dropAbruptly();
    }

    /** The local consumer port the bridge takes frames from. */
    public ConsumerPort port() {
        return port;
    }

    @Override
    public BridgeSnapshot snapshot() {
        LinkStatus s = link.status();
        return new BridgeSnapshot(channel.name(), role(), s.state(), s.peer(), s.problem(), s.epoch(), window.staged(), s.sent(),
                s.received(), window.credited(), s.bytes(), s.reconnects(), s.resent(), window.waitingForCredit(),
                s.peerSilentMillis(), s.refusals());
    }

    /**
     * Waits (within {@code timeout}) for the bridge to take what the local channel published and for the
     * receiver to confirm everything taken, reconnecting if needed; then stops taking frames and closes.
     * Frames published after that stay in the local channel, reported in {@code localBacklog}; the port
     * has no listener any more, so a bridge opened again on it later carries them.
     */
    @Override
    public BridgeCloseReport close(Duration timeout) {
        return closing.close(timeout, () -> {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (port.backlog() > 0 && System.nanoTime() - deadline < 0 && !Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(1_000_000);
            }
            port.unsubscribe(); // no new frame reaches the bridge; a frame staging now stays in the channel, unacknowledged
            window.close();
            boolean ended = link.stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            if (ended) {
                region.close(); // never while the link thread may still put from it
            }
            link.status().finish(LinkState.CLOSED, null);
            return report(ended);
        }, () -> report(false));
    }

    private BridgeCloseReport report(boolean ended) {
        long taken = window.staged();
        long confirmed = window.credited();
        return new BridgeCloseReport(channel.name(), role(), taken, confirmed, taken - confirmed, port.backlog(),
                confirmed < taken || !ended);
    }

    @Override
    public String toString() {
        return "SendingBridge[" + channel.name() + " -> " + link.status().peer() + ", " + state() + "]";
    }
}
