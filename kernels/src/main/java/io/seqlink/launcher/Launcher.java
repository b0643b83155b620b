package io.seqlink.launcher;

import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.consumer.PortDriver;
import io.seqlink.channel.lifecycle.Channels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives every consumer: one {@link DeviceLoop} per consumer device, each on its own thread, plus a
 * watchdog thread that, every millisecond, moves a device loop held up by a listener to a new thread
 * ({@link #HANDOFF_AFTER}) and, every watchdog period, looks at every consumer's acknowledgements for
 * stalls; while every loop dozes (a publish wakes a dozing loop, and the loop the watchdog) it sleeps, looking at the
 * dozing loops' ports once a second. Ports can be registered before or after {@link #start()}; from the start on, the launcher is
 * each registered port's only poller (a user's {@code poll} is refused).
 *
 * <p>Every method is safe from any thread; {@link #start()} and {@link #stop(Duration)} are
 * serialized. {@link #awaitDrained} and {@link #stop(Duration)} return at their timeout, and at once
 * on interrupt with the flag kept.
 */
public final class Launcher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Launcher.class);
    /** How long {@link #close()} and {@link #stop()} give listeners still in a call. */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(1);
    /**
     * How long one listener call may wait (parked, sleeping, blocked) on a device loop before the loop
     * moves to a new thread and that listener to a thread of its own: what another channel of the device
     * can be delayed by a blocked listener, plus the watchdog's 1 ms tick. A call that runs gets ten
     * times this of CPU time (so a thread merely descheduled on a busy machine is not handed over), a whole
     * round twenty-five times of wall time (so a big round of quick calls is not, and a call blocked in
     * native code is).
     */
    public static final Duration HANDOFF_AFTER = Duration.ofMillis(2);
    private static final long TICK_NANOS = 1_000_000;

    private final LauncherSettings settings;
    private final Doze.Times dozeTimes;
    private final Map<Integer, DeviceLoop> loops = new ConcurrentHashMap<>();
    private final DozeWatch dozeWatch;
    private volatile boolean running;
    private volatile @Nullable Thread watchdog;

    public Launcher(LauncherSettings settings) {
        this(settings, Doze.Times.DEFAULT);
    }

    /** A launcher whose loops doze on {@code dozeTimes} (tests). */
    Launcher(LauncherSettings settings, Doze.Times dozeTimes) {
        this.settings = settings;
        this.dozeTimes = dozeTimes;
        this.dozeWatch = new DozeWatch(dozeTimes.lookNanos());
    }

    public LauncherSettings settings() {
        return settings;
    }

    /** Adds a consumer to its device's loop; once the launcher runs, it drives the port. */
    public void register(ConsumerPort port) {
        DeviceLoop loop = loops.computeIfAbsent(port.device(), d -> new DeviceLoop(d, settings.batchSize(),
                settings.idleStrategy().create(), settings.idleStrategy().dozes(), dozeTimes, this::wakeWatchdog,
                HANDOFF_AFTER.toNanos()));
        dozeWatch.portAdded(port);
        loop.add(Channels.driver(port));
        if (running) {
            loop.start();
            wakeWatchdog(); // a new loop is awake: the watchdog ticks for it
        }
    }

    public void unregister(ConsumerPort port) {
        DeviceLoop loop = loops.get(port.device());
        if (loop != null) {
            PortDriver driver = Channels.driver(port);
            loop.remove(driver);
            dozeWatch.portRemoved(port);
            driver.release();
        }
    }

    /** Starts every device loop and the watchdog. Idempotent. */
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        loops.values().forEach(DeviceLoop::start);
        Thread w = new Thread(this::watch, "seqlink-watchdog");
        w.setDaemon(true);
        watchdog = w;
        w.start();
        log.info("seqlink launcher started: {} device loop(s), batch {}, idle {}", loops.size(), settings.batchSize(),
                settings.idleStrategy().name().toLowerCase());
    }

    public boolean running() {
        return running;
    }

    /**
     * Waits up to {@code timeout} until every registered, live consumer has acknowledged everything
     * its channel published. True when they all did; false at the timeout or when the calling thread
     * is interrupted (the flag is kept).
     */
    public boolean awaitDrained(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean drained = true;
            for (ConsumerPort p : ports()) {
                // backlog, not lag: a publish still queued on the producer's stream counts too
                if (p.state() == ConsumerState.ACTIVE && p.backlog() > 0) {
                    drained = false;
                    break;
                }
            }
            if (drained) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0 || Thread.currentThread().isInterrupted()) {
                return false;
            }
            LockSupport.parkNanos(200_000);
        }
    }

    /** {@link #stop(Duration)} with {@link #DEFAULT_STOP_TIMEOUT}. */
    public void stop() {
        stop(DEFAULT_STOP_TIMEOUT);
    }

    /**
     * Stops the loops, the ports' listener threads and the watchdog within {@code timeout}: a listener
     * still in a call then is left to return on its own, never interrupted (consumers stay registered,
     * and users may poll them again). Idempotent.
     */
    public synchronized void stop(Duration timeout) {
        if (!running) {
            return;
        }
        running = false;
        long deadline = System.nanoTime() + timeout.toNanos();
        loops.values().forEach(l -> l.stop(deadline));
        Thread w = watchdog;
        if (w != null) {
            w.interrupt();
            try {
                w.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        log.info("seqlink launcher stopped");
    }

    /** The consumers registered, over all devices. */
    public List<ConsumerPort> ports() {
        List<ConsumerPort> all = new ArrayList<>();
        loops.values().forEach(l -> l.ports().forEach(d -> all.add(d.port())));
        return all;
    }

    /** Whether every device loop dozes now: its consumers caught up for a while ({@link Doze}; tests and diagnostics). */
    public boolean loopsDozing() {
        if (loops.isEmpty()) {
            return false;
        }
        for (DeviceLoop loop : loops.values()) {
            if (!loop.dozing()) {
                return false;
            }
        }
        return true;
    }

    /** Passes made by the loop of {@code device} (tests and diagnostics). */
    public long passes(int device) {
        DeviceLoop loop = loops.get(device);
        return loop == null ? 0 : loop.passes();
    }

    /** A device loop stopped dozing: the watchdog, asleep while every loop dozed, ticks again. */
    private void wakeWatchdog() {
        Thread w = watchdog;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /**
     * Every tick (1 ms), hands over a listener that holds a device loop up; every watchdog period, looks for
     * stalls; and looks at the dozing loops' ports once per doze look interval, waking a loop when frames wait
     * ({@link Doze}). While every loop dozes (no listener call can be in progress, no frame waits, so no consumer can
     * stall) it sleeps until that look, or until the one stall check due at the start of a doze; a loop that
     * wakes, or is registered, wakes it.
     */
    private void watch() {
        long periodNanos = settings.watchdogPeriod().toNanos();
        long nextStallCheck = System.nanoTime();
        while (running) {
            long now = System.nanoTime();
            boolean allDozing = true; // no loop: nothing to tick for until one is registered
            for (DeviceLoop loop : loops.values()) {
                loop.supersede(now);
                allDozing &= loop.dozing();
            }
            long untilLook = dozeWatch.look(loops.values(), now);
            if (now - nextStallCheck >= 0) {
                nextStallCheck = now + periodNanos;
                for (DeviceLoop loop : loops.values()) {
                    if (loop.stallCheckDue()) {
                        checkStalls(loop, now);
                    }
                }
            }
            boolean stallCheckPending = false;
            for (DeviceLoop loop : loops.values()) {
                stallCheckPending |= loop.stallCheckPending();
            }
            long sleep = !allDozing ? Math.min(periodNanos, TICK_NANOS)
                    : stallCheckPending ? Math.min(untilLook, Math.max(0, nextStallCheck - System.nanoTime())) : untilLook;
            LockSupport.parkNanos(this, Math.max(TICK_NANOS / 10, sleep));
            if (Thread.interrupted() && !running) {
                return;
            }
        }
    }

    private static void checkStalls(DeviceLoop loop, long now) {
        for (PortDriver p : loop.ports()) {
            try {
                p.checkStall(now);
            } catch (RuntimeException ex) {
                log.debug("seqlink watchdog: {} could not be checked: {}", p, ex.toString());
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
