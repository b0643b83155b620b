package io.seqlink.ucx.link;

import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.LinkState;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.ucp.UcpAmData;
import org.openucx.jucx.ucp.UcpAmRecvCallback;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.openucx.jucx.ucs.UcsConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that owns one link's UCX worker: every UCX call of the link happens here (the worker is
 * created without thread safety, as UCX is fastest single-threaded). Each pass progresses the worker,
 * then runs the link's step; it idles (spin, yield, park up to 50 µs) when neither found work.
 *
 * <p>Threads: {@link #start} and {@link #stop} are for the owning bridge, once each, from any thread;
 * the protected hooks run on the link thread only.
 */
public abstract class LinkLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(LinkLoop.class);

    protected final UcpContext context;
    protected final BridgeSettings settings;
    protected final LinkStatus status;
    protected final String name;
    protected @Nullable UcpWorker worker;

    /** The link's worker, for link code: it runs on the link thread only after {@link #run()} made the worker. */
    protected final UcpWorker worker() {
        return Objects.requireNonNull(worker, "the link thread makes its worker before any link code runs");
    }
    private final CountDownLatch opened = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile @Nullable Throwable openFailure;
    private volatile long stopDeadlineNanos;
    private volatile boolean stopRequested;
    private @Nullable Thread thread;

    protected LinkLoop(UcpContext context, BridgeSettings settings, String name, String peer) {
        this.context = context;
        this.settings = settings;
        this.name = name;
        this.status = new LinkStatus(peer);
    }

    public LinkStatus status() {
        return status;
    }

    /** Starts the link thread and waits until it has opened (a listener bound, say); rethrows what failed. */
    public synchronized void start(Duration timeout) {
        if (thread != null) {
            throw new IllegalStateException(name + " was started already");
        }
        Thread t = new Thread(this, name);
        t.setDaemon(true);
        thread = t;
        t.start();
        try {
            if (!opened.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException(name + " did not open within " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + name + " opened", e);
        }
        Throwable failure = openFailure;
        if (failure != null) {
            finishedAwait(timeout);
            if (failure instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(name + " could not open: " + failure, failure);
        }
    }

    /**
     * Asks the link thread to finish (its {@link #closing} step runs until it says done or the
     * deadline passes) and waits for it, at most {@code timeout} plus a second for the UCX teardown.
     * Returns whether the thread ended; on interrupt it returns at once, keeping the flag.
     */
    public boolean stop(Duration timeout) {
        stopDeadlineNanos = System.nanoTime() + timeout.toNanos();
        stopRequested = true;
        return finishedAwait(timeout.plusSeconds(1));
    }

    private boolean finishedAwait(Duration timeout) {
        try {
            return finished.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public final void run() {
        UcpWorker w = null;
        try {
            try {
                w = context.newWorker(new UcpWorkerParams());
                worker = w;
                open(w);
            } catch (Throwable t) {
                openFailure = t;
                return;
            } finally {
                opened.countDown();
            }
            IdleStrategy idle = new BackoffIdleStrategy(200, 20, 1_000, 50_000);
            while (true) {
                int work;
                try {
                    work = w.progress();
                } catch (RuntimeException ex) {
                    // a callback's UCX call on an endpoint that died under it; a callback's own throw is caught in guard()
                    progressFailed(ex);
                    work = 1;
                }
                long now = System.nanoTime();
                if (stopRequested && closing(now, now - stopDeadlineNanos >= 0)) {
                    break;
                }
                work += step(now);
                idle.idle(work);
            }
        } catch (Throwable t) {
            log.error("seqlink UCX {}: the link thread failed: {}", name, t.toString(), t);
            status.finish(LinkState.FAILED, "the link thread failed: " + t);
        } finally {
            try {
                release();
            } catch (Throwable t) {
                log.warn("seqlink UCX {}: releasing the link failed: {}", name, t.toString());
            }
            if (w != null) {
                w.close();
            }
            finished.countDown();
        }
    }

    /** Link thread: sets up (the receiver binds its listener here). A throw fails {@link #start}. */
    protected abstract void open(UcpWorker worker);

    /** Link thread: a UCX call inside progress failed; the link is lost and opened again. */
    protected abstract void progressFailed(RuntimeException failure);

    /** An active-message handler of link code: it may throw; {@link #guard} catches at the callback boundary. */
    @FunctionalInterface
    protected interface AmHandler {
        void onReceive(long headerAddress, long headerSize, UcpAmData data, @Nullable UcpEndpoint replyEp);
    }

    /**
     * {@code handler} as a UCX callback that never throws: whatever it throws (a malformed message, a
     * bug) goes to {@link #refuseMessage} with the endpoint it came on, so it never leaves
     * {@code progress()} and never ends the link thread.
     */
    protected final UcpAmRecvCallback guard(int id, AmHandler handler) {
        return (headerAddress, headerSize, data, replyEp) -> {
            try {
                handler.onReceive(headerAddress, headerSize, data, replyEp);
            } catch (RuntimeException ex) {
                try {
                    refuseMessage(id, replyEp, ex);
                } catch (RuntimeException again) {
                    log.warn("seqlink UCX {}: refusing a message of id {} failed: {}", name, id, again.toString());
                }
            }
            return UcsConstants.STATUS.UCS_OK; // a message not taken is dropped by UCX (rendezvous: never fetched)
        };
    }

    /**
     * Link thread, inside a callback: a message of {@code id} from {@code from} (null when UCX did not say)
     * was refused because of {@code why}: count it and drop only that endpoint's connection.
     */
    protected abstract void refuseMessage(int id, @Nullable UcpEndpoint from, RuntimeException why);

    /** Link thread: one pass of the link's work; returns how much was done (0: idle). */
    protected abstract int step(long nowNanos);

    /**
     * Link thread, after a stop was asked: one pass of the closing work; returns true when done.
     * {@code overdue} says the stop's deadline has passed: finish now.
     */
    protected abstract boolean closing(long nowNanos, boolean overdue);

    /** Link thread, last: closes endpoints and keys (the worker is closed after it). */
    protected abstract void release();

    /**
     * Link thread: closes {@code ep} (UCX flushes what was sent on it first when {@code flush}, else
     * cancels it) and progresses the worker until UCX is done with it, at most {@code connect-timeout}.
     * Returns whether the close completed; UCX allows one close per endpoint, so one that did not is
     * left to the worker's close.
     */
    protected final boolean closeEndpoint(@Nullable UcpEndpoint ep, boolean flush) {
        if (ep == null) {
            return true;
        }
        UcpRequest closing;
        try {
            closing = flush ? ep.closeNonBlockingFlush() : ep.closeNonBlockingForce();
        } catch (RuntimeException ex) {
            return true; // the endpoint failed already; UCX released it
        }
        long deadline = System.nanoTime() + settings.connectTimeout().toNanos();
        while (!closing.isCompleted()) {
            if (System.nanoTime() - deadline >= 0) {
                log.debug("seqlink UCX {}: closing an endpoint did not complete within {}", name, settings.connectTimeout());
                return false;
            }
            try {
                worker().progress();
            } catch (Exception ex) {
                // a callback's UCX call on the endpoint being closed: the close goes on
            }
        }
        return true;
    }
}
