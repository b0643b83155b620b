package io.seqlink.channel.shared;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelFailedException;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.consumer.DefaultConsumerPort;
import io.seqlink.error.SeqlinkException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attachment of this process to a shared channel ({@link AttachedChannel}): its port, its connection, its mapping
 * and its heartbeat thread, and its state, changed only by compare-and-set ({@code OPEN → FAILED}, either to
 * {@code CLOSED}). Leaving {@code OPEN} seals the port's deliveries first, so no listener call begins from then on, the
 * rest of a round in delivery included. Every method is safe from any thread.
 */
final class Attachment implements AttachedChannel {

    private static final Logger log = LoggerFactory.getLogger(Attachment.class);

    private final String name;
    private final DefaultConsumerPort port;
    private final SocketChannel connection;
    private final List<AutoCloseable> allocations;
    private final List<MappedBuffer> mapped;
    private final Consumer<ConsumerPort> unregister;
    private final CountDownLatch quiet;
    private final Duration stallTimeout;
    private final int seat;
    private final long epoch;
    private final long startsAfter;
    private final AtomicReference<ChannelState> state = new AtomicReference<>(ChannelState.OPEN);
    private final AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
    private volatile @Nullable AttachmentWatch watch;

    Attachment(String name, DefaultConsumerPort port, SocketChannel connection, List<AutoCloseable> allocations,
            List<MappedBuffer> mapped, Consumer<ConsumerPort> unregister, CountDownLatch quiet, Duration stallTimeout,
            AttachProtocol.Accepted accepted) {
        this.name = name;
        this.port = port;
        this.connection = connection;
        this.allocations = allocations;
        this.mapped = mapped;
        this.unregister = unregister;
        this.quiet = quiet;
        this.stallTimeout = stallTimeout;
        this.seat = accepted.seat();
        this.epoch = accepted.epoch();
        this.startsAfter = accepted.startsAfter();
    }

    /** Starts the heartbeat thread {@code w}: called once, after the port was registered with the launcher. */
    void startWatch(AttachmentWatch w) {
        this.watch = w;
        Thread t = new Thread(w, "seqlink-attached-" + name + "-heartbeat");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The producer is gone: {@code FAILED}, the port's deliveries sealed (no listener call begins from now, not even of
     * the round in delivery; one in progress finishes) and the port stopped. Any thread; the first failure wins.
     */
    void fail(String why) {
        record(why);
    }

    /**
     * The port found its seat taken back around a round ({@link AttachmentLease}), {@code why} naming the frames: fails
     * the attachment as {@link #fail} does; when it failed or closed already (its heartbeat thread saw the drop first,
     * say), {@code why} says what that failure cannot (which frames the listener had), so it is added to the failure
     * ({@link Throwable#addSuppressed}) and logged. Any thread.
     */
    void seatLost(String why) {
        if (record(why) && state() == ChannelState.FAILED) {
            return; // failed with why, logged
        }
        Throwable first = failure.get();
        if (first != null && !why.equals(java.util.Objects.requireNonNull(first.getCause()).getMessage())) {
            first.addSuppressed(new SeqlinkException(why));
        }
        log.error("seqlink attached channel '{}' (seat {}, epoch {}, {}): {}", name, seat, epoch,
                state().name().toLowerCase(java.util.Locale.ROOT), why);
    }

    /** Records {@code why} as the failure unless one is recorded, then {@code OPEN → FAILED}; whether it recorded it. */
    private boolean record(String why) {
        if (!failure.compareAndSet(null, new ChannelFailedException(name, new SeqlinkException(why)))) {
            return false;
        }
        if (state.compareAndSet(ChannelState.OPEN, ChannelState.FAILED)) {
            port.sealDeliveries();
            port.stop();
            log.error("seqlink attached channel '{}' (seat {}, epoch {}) failed: {}; close() it, and attach again once a "
                    + "producer shares it", name, seat, epoch, why);
        }
        return true;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ChannelState state() {
        return java.util.Objects.requireNonNull(state.get(), "never null");
    }

    @Override
    public @Nullable Throwable failure() {
        return state() == ChannelState.FAILED ? failure.get() : null;
    }

    @Override
    public ConsumerPort consumer() {
        return port;
    }

    @Override
    public long epoch() {
        return epoch;
    }

    @Override
    public int seat() {
        return seat;
    }

    @Override
    public long startsAfter() {
        return startsAfter;
    }

    @Override
    public void close() {
        ChannelState was = state.getAndUpdate(s -> ChannelState.CLOSED);
        if (was == ChannelState.CLOSED) {
            return;
        }
        AttachmentWatch w = watch;
        if (w != null) {
            w.close();
        }
        port.sealDeliveries(); // no listener call begins from here, not even of the round in delivery
        port.stop();
        unregister.accept(port);
        port.shutMemory();
        if (port.deliversOn(Thread.currentThread())) {
            ExportSeats.closeQuietly(connection); // the producer drops the seat as the connection ends
            return; // its own listener closes it: the memory it reads stays until the runtime's backend closes
        }
        boolean quietNow = false;
        try {
            quietNow = quiet.await(stallTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // after the last listener call: until the connection ends the seat stays live, so the producer rewrites no slot
        // such a call reads (past the wait, the producer drops the seat for its stopped heartbeat anyway)
        ExportSeats.closeQuietly(connection);
        if (!quietNow) {
            log.warn("seqlink attached channel '{}': a listener was still in a call after {}; its memory stays until the runtime's "
                    + "backend closes", name, stallTimeout);
            return;
        }
        port.freeze();
        for (AutoCloseable a : allocations) {
            try {
                a.close();
            } catch (Exception e) {
                log.warn("seqlink attached channel '{}': freeing {} failed: {}", name, a, e.toString());
            }
        }
        mapped.forEach(MappedBuffer::close);
    }

    @Override
    public String toString() {
        return "AttachedChannel[" + name + ", seat " + seat + ", epoch " + epoch + ", " + state() + "]";
    }
}
