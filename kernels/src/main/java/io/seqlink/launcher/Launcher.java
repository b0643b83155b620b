package io.seqlink.launcher;

import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives every consumer: one {@link DeviceLoop} per consumer device, each on its own thread, plus a
 * stall watchdog thread that looks at every consumer's acknowledgements. Ports can be registered
 * before or after {@link #start()}.
 */
public final class Launcher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Launcher.class);

    private final LauncherSettings settings;
    private final Map<Integer, DeviceLoop> loops = new ConcurrentHashMap<>();
    private volatile boolean running;
    private Thread watchdog;

    public Launcher(LauncherSettings settings) {
        this.settings = settings;
    }

    public LauncherSettings settings() {
        return settings;
    }

    /** Adds a consumer to its device's loop. */
    public void register(ConsumerPort port) {
        DeviceLoop loop = loops.computeIfAbsent(port.device(),
                d -> new DeviceLoop(d, settings.batchSize(), settings.idleStrategy().create()));
        loop.add(port);
        if (running) {
            loop.start();
        }
    }

    public void unregister(ConsumerPort port) {
        DeviceLoop loop = loops.get(port.device());
        if (loop != null) {
            loop.remove(port);
        }
    }

    /** Starts every device loop and the watchdog. Idempotent. */
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        loops.values().forEach(DeviceLoop::start);
        watchdog = new Thread(this::watch, "seqlink-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        log.info("seqlink launcher started: {} device loop(s), batch {}, idle {}", loops.size(), settings.batchSize(),
                settings.idleStrategy().name().toLowerCase());
    }

    public boolean running() {
        return running;
    }

    /**
     * Waits up to {@code timeout} until every registered, live consumer has acknowledged everything
     * its channel published. True when they all did.
     */
    public boolean awaitDrained(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean drained = true;
            for (DeviceLoop loop : loops.values()) {
                for (ConsumerPort p : loop.ports()) {
                    // backlog, not lag: a publish still queued on the producer's stream counts too
                    if (p.state() == ConsumerState.ACTIVE && p.backlog() > 0) {
                        drained = false;
                    }
                }
            }
            if (drained) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            LockSupport.parkNanos(200_000);
        }
    }

    /** Stops the loops and the watchdog; consumers stay registered. Idempotent. */
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        loops.values().forEach(DeviceLoop::stop);
        Thread w = watchdog;
        if (w != null) {
            w.interrupt();
            try {
                w.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        log.info("seqlink launcher stopped");
    }

    /** The consumers registered, over all devices. */
    public List<ConsumerPort> ports() {
        List<ConsumerPort> all = new ArrayList<>();
        loops.values().forEach(l -> all.addAll(l.ports()));
        return all;
    }

    /** Passes made by the loop of {@code device} (tests and diagnostics). */
    public long passes(int device) {
        DeviceLoop loop = loops.get(device);
        return loop == null ? 0 : loop.passes();
    }

    private void watch() {
        long periodNanos = settings.watchdogPeriod().toNanos();
        while (running) {
            long now = System.nanoTime();
            for (DeviceLoop loop : loops.values()) {
                for (ConsumerPort p : loop.ports()) {
                    try {
                        p.checkStall(now);
                    } catch (RuntimeException ex) {
                        log.debug("seqlink watchdog: {} could not be checked: {}", p, ex.toString());
                    }
                }
            }
            LockSupport.parkNanos(periodNanos);
            if (Thread.interrupted() && !running) {
                return;
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
