package io.seqlink.channel.lifecycle;

import io.seqlink.LogKeys;
import io.seqlink.backend.DeviceStream;
import io.seqlink.channel.ChannelFailedException;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.consumer.DefaultConsumerPort;
import io.seqlink.channel.consumer.ListenerThreads;
import io.seqlink.channel.memory.MemoryGuard;
import io.seqlink.channel.producer.ProducerAdmission;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel's life: its state, changed only by compare-and-set (nothing overwrites {@code FAILED} or
 * {@code CLOSED}); who may produce; the memory guards; and the release of everything it allocated,
 * which runs once the last guard is quiet, on whichever thread leaves last.
 *
 * <pre>
 *   OPEN ──drain──> DRAINING ──finish──> CLOSED
 *     \                \
 *      └──device error──┴──> FAILED  (finish releases it, the state stays FAILED)
 *
 *   producers: OPEN: any thread; DRAINING: seqlink's listener threads while a runtime drains all
 *   channels together (so chained channels empty), nobody once the drain shut the producer guard
 * </pre>
 */
final class ChannelLife implements ProducerAdmission {

    private static final Logger log = LoggerFactory.getLogger(ChannelLife.class);

    /** A state and, once failed, why ({@code null} in every other state). Replaced as a whole. */
    private record Phase(ChannelState state, @Nullable Throwable failure) {
    }

    private static final Phase OPEN = new Phase(ChannelState.OPEN, null);

    private final DefaultPublishChannel channel;
    private final ChannelEvents events;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final AtomicReference<Phase> phase = new AtomicReference<>(OPEN);
    private final MemoryGuard producers = new MemoryGuard(this::guardQuiet);
    private final MemoryGuard observers = new MemoryGuard(this::guardQuiet);
    /** Guards not yet quiet: the producers', the observers' and one per consumer port. */
    private final AtomicInteger busyGuards;
    private final AtomicBoolean finishing = new AtomicBoolean();
    private final AtomicBoolean released = new AtomicBoolean();
    private volatile boolean admitListeners;
    /** {@code publish_seq} as the mirror last showed it, kept when the mirror is freed; -1 while open. */
    private volatile long finalPublished = -1;
    private volatile @Nullable DrainReport finalReport;

    ChannelLife(DefaultPublishChannel channel, ChannelEvents events, int ports) {
        this.channel = channel;
        this.events = events;
        this.busyGuards = new AtomicInteger(2 + ports);
    }

    List<AutoCloseable> resources() {
        return resources;
    }

    ChannelEvents events() {
        return events;
    }

    @Override
    public ChannelState state() {
        return phase().state();
    }

    @Nullable Throwable failure() {
        return phase().failure();
    }

    /** The phase now: it starts {@code OPEN} and only compare-and-set replaces it, always with a phase. */
    private Phase phase() {
        return Objects.requireNonNull(phase.get(), "phase");
    }

    // ---- transitions --------------------------------------------------------------------------

    /** OPEN to DRAINING; {@code admitListeners}: seqlink's listener threads may still produce. False unless it was open. */
    boolean beginDrain(boolean admit) {
        Phase p = phase();
        if (p.state() != ChannelState.OPEN) {
            return false;
        }
        admitListeners = admit; // before the transition: a listener that sees DRAINING sees whether it is admitted
        if (phase.compareAndSet(p, new Phase(ChannelState.DRAINING, null))) {
            finishing.set(true); // the drainer finishes it
            return true;
        }
        return false;
    }

    /**
     * Fails the channel closed with {@code cause} unless it is closed or failed already: claims return
     * {@code FAILED}, consumers stop. Returns the exception the caller should throw.
     */
    @Override
    public ChannelFailedException fail(Throwable cause, int device) {
        for (Phase p = phase(); p.state() != ChannelState.FAILED && p.state() != ChannelState.CLOSED; p = phase()) {
            if (phase.compareAndSet(p, new Phase(ChannelState.FAILED, cause))) {
                for (DefaultConsumerPort port : channel.portArray()) {
                    port.stop();
                }
                log.atError().addKeyValue(LogKeys.CHANNEL, channel.name()).addKeyValue(LogKeys.DEVICE, device)
                        .log("seqlink channel '{}' failed and is closed: {}", channel.name(), cause.getMessage());
                events.channelFailed(channel, cause, device);
                break;
            }
        }
        Throwable f = failure();
        return new ChannelFailedException(channel.name(), f == null ? cause : f);
    }

    /** DRAINING (or OPEN) to CLOSED; a failed channel stays FAILED. */
    private void toClosed() {
        for (Phase p = phase(); p.state() == ChannelState.OPEN || p.state() == ChannelState.DRAINING; p = phase()) {
            if (phase.compareAndSet(p, new Phase(ChannelState.CLOSED, null))) {
                return;
            }
        }
    }

    // ---- producers ----------------------------------------------------------------------------

    /** Enters the producer guard if the calling thread may produce now; a {@code true} pairs with {@link #exitProducer()}. */
    @Override
    public boolean enterProducer() {
        if (!producers.enter()) {
            return false;
        }
        if (admitsProducer()) {
            return true;
        }
        producers.exit();
        return false;
    }

    /**
     * Whether the calling thread may produce now, asked by a thread already inside the guard (a claim
     * that commits): OPEN, or DRAINING for seqlink's listener threads while a runtime drains all channels.
     */
    @Override
    public boolean admitsProducer() {
        return phase.get() == OPEN // OPEN is one instance: the check is a load and a compare
                || (state() == ChannelState.DRAINING && admitListeners && ListenerThreads.current());
    }

    @Override
    public void exitProducer() {
        producers.exit();
    }

    /** Throws what a producer call on a channel that refuses it throws. */
    @Override
    public void throwUnusable(String call, String detail) {
        Phase p = phase();
        if (p.state() == ChannelState.FAILED) {
            throw new ChannelFailedException(channel.name(), Objects.requireNonNull(p.failure(), "a failed phase has its cause"));
        }
        throw new IllegalStateException(call + ": channel '" + channel.name() + "' is " + p.state().name().toLowerCase() + detail
                + "; open a new channel to publish again");
    }

    @Override
    public long refusedStatus() {
        return state() == ChannelState.FAILED ? ClaimStatus.FAILED : ClaimStatus.CLOSED;
    }

    /** No producer is admitted any more: shuts the guard; those inside finish their call. */
    void shutProducers() {
        admitListeners = false;
        producers.shut();
    }

    int producersInside() {
        return producers.inside();
    }

    // ---- observers and the end ------------------------------------------------------------------

    @Override
    public boolean enterObserver() {
        return observers.enter();
    }

    @Override
    public void exitObserver() {
        observers.exit();
    }

    long finalPublished() {
        return finalPublished;
    }

    @Nullable DrainReport finalReport() {
        return finalReport;
    }

    /** Whether this caller is the one to finish a channel nobody drains (a failed one); exactly one is. */
    boolean claimFinish() {
        return finishing.compareAndSet(false, true);
    }

    /**
     * Ends the channel, whose consumers the drain has stopped: the final positions are kept (snapshots
     * answer from them), the state becomes CLOSED (a failed channel stays FAILED), and every guard shuts,
     * so the memory is released as soon as nobody is inside. Only its drainer, or the caller of a
     * successful {@link #claimFinish()}, calls it, from {@code ChannelDrain.finish}.
     */
    void finish(DrainReport report) {
        if (observers.enter()) {
            try {
                finalPublished = channel.producerTransport().publishedOnDevice();
                for (DefaultConsumerPort p : channel.portArray()) {
                    p.freeze();
                }
            } finally {
                observers.exit();
            }
        }
        finalReport = report;
        toClosed();
        producers.shut();
        observers.shut();
        for (DefaultConsumerPort p : channel.portArray()) {
            p.shutMemory();
        }
        events.channelClosed(channel);
    }

    /** A guard went quiet; the last one releases the memory. */
    void guardQuiet() {
        if (busyGuards.decrementAndGet() == 0) {
            release();
        }
    }

    /**
     * Frees what the channel allocated. Streams close first: closing one waits for its queued work, and
     * that work may still read or write the channel's memory (freeing memory under running kernels is
     * undefined on a GPU; on the emulated backend it failed the device, stickily).
     */
    private void release() {
        if (released.compareAndSet(false, true)) {
            freeResources();
            events.channelReleased(channel);
        }
    }

    /** Frees everything at once: for a channel that never opened (nobody can be inside). */
    void freeNow() {
        if (released.compareAndSet(false, true)) {
            freeResources();
        }
    }

    private void freeResources() {
        List<AutoCloseable> all;
        synchronized (resources) {
            all = new ArrayList<>(resources);
            resources.clear();
        }
        Collections.reverse(all);
        for (AutoCloseable r : all) {
            if (r instanceof DeviceStream) {
                closeQuietly(r);
            }
        }
        for (AutoCloseable r : all) {
            if (!(r instanceof DeviceStream)) {
                closeQuietly(r);
            }
        }
    }

    private void closeQuietly(AutoCloseable r) {
        try {
            r.close();
        } catch (Exception ex) {
            log.debug("seqlink channel '{}': releasing {} failed: {}", channel.name(), r, ex.toString());
        }
    }
}
