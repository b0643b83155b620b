package io.seqlink;

import io.seqlink.backend.Backend;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.lifecycle.Channels;
import io.seqlink.launcher.Launcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's close sequence and the one moment its backend may be freed. {@link #close()}: the
 * channel table closes (opens in progress end first), every channel drains together within the drain
 * timeout while the launcher still runs, the launcher stops, and the backend closes, at once, or when
 * the last channel a blocked listener still reads releases its memory ({@link #channelReleased()}).
 * Safe from any thread: the table's close has one winner, the backend's close is a compare-and-set.
 */
final class RuntimeShutdown {

    private static final Logger log = LoggerFactory.getLogger(SeqlinkRuntime.class);
    /** How long {@link #close()} gives the launcher's threads once the channels are closed. */
    private static final Duration STOP_TIMEOUT = Duration.ofMillis(500);

    private final Backend backend;
    private final Launcher launcher;
    private final ChannelTable channels;
    private final Duration drainTimeout;
    /** Channels opened whose memory is not released yet: the backend closes when this reaches 0 after {@link #close()}. */
    private final AtomicInteger unreleased = new AtomicInteger();
    private final AtomicBoolean backendClosed = new AtomicBoolean();
    private volatile boolean backendCloseWanted;
    private volatile List<DrainReport> drainReports = List.of();

    RuntimeShutdown(Backend backend, Launcher launcher, ChannelTable channels, Duration drainTimeout) {
        this.backend = backend;
        this.launcher = launcher;
        this.channels = channels;
        this.drainTimeout = drainTimeout;
    }

    /** A channel was allocated: the backend stays until it is released. */
    void channelOpened() {
        unreleased.incrementAndGet();
    }

    /** A channel's memory was freed (at its close, or when its last listener returned). */
    void channelReleased() {
        if (unreleased.decrementAndGet() == 0 && backendCloseWanted) {
            closeBackend();
        }
    }

    List<DrainReport> drainAndCloseChannels(Duration timeout) {
        drainReports = List.copyOf(Channels.drainAndCloseAll(channels.channels(), timeout));
        return drainReports;
    }

    List<DrainReport> drainReports() {
        return drainReports;
    }

    void close() {
        if (!channels.close(drainTimeout.toNanos())) {
            return;
        }
        List<DrainReport> reports = drainAndCloseChannels(drainTimeout);
        launcher.stop(STOP_TIMEOUT);
        backendCloseWanted = true;
        if (unreleased.get() == 0) {
            closeBackend();
            return;
        }
        List<String> running = new ArrayList<>();
        for (DrainReport r : reports) {
            r.listenersNotReturned().forEach((device, listener) -> running.add(r.channel() + "/" + device + ": " + listener));
        }
        log.warn("seqlink runtime closed; the backend stays open until these listeners return (their channels' memory "
                + "is still in use): {}", running.isEmpty() ? unreleased.get() + " channel(s)" : running);
    }

    private void closeBackend() {
        if (backendClosed.compareAndSet(false, true)) {
            backend.close();
            log.info("seqlink runtime closed");
        }
    }
}
