package io.seqlink.channel.shared;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.consumer.DefaultConsumerPort;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attachment of this process to a shared channel ({@link AttachedChannel}): its port, its connection, its mapping
 * and its heartbeat thread; its state is an {@link AttachmentState}. Leaving {@code OPEN} seals the port's deliveries
 * first, so no listener call begins from then on, the rest of a round in delivery included. Every method is safe from any
 * thread.
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
    private final AttachmentState states;
    private volatile @Nullable AttachmentWatch watch;

    Attachment(String name, DefaultConsumerPort port, SocketChannel connection, List<AutoCloseable> allocations,
            List<MappedBuffer> mapped, Consumer<ConsumerPort> unregister, CountDownLatch quiet, Duration stallTimeout,
            AttachProtocol.Accepted accepted, AttachmentState states) {
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
        this.states = states;
        states.bind(() -> {
            port.sealDeliveries();
            port.stop();
        });
    }

    /** Starts the heartbeat thread {@code w}: called once, after the port was registered with the launcher. */
    void startWatch(AttachmentWatch w) {
        this.watch = w;
        Thread t = new Thread(w, "seqlink-attached-" + name + "-heartbeat");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ChannelState state() {
        return states.state();
    }

    @Override
    public @Nullable Throwable failure() {
        return states.failure();
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
        if (!states.close()) {
            return;
        }
        AttachmentWatch w = watch;
        if (w != null) {
            w.close();
        }
        unregister.accept(port); // sealed and stopped by the close of its state: no listener call begins from here
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
