package io.seqlink.launcher;

import io.seqlink.LogKeys;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.consumer.PortDriver;
import io.seqlink.channel.lifecycle.Channels;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The polling loop of one consumer device, on a thread of its own (a driver context is bound to a
 * thread): each pass runs one bounded round step per subscribed, active port on the device, and idles
 * with its strategy when no port found work. The loop, not a GPU thread, decides when to look again.
 *
 * <p>The loop runs listeners inline (no thread hop on the fast path) but never waits for one: a failed
 * attempt's retries go to the port's listener thread, and when a listener holds the loop up (one call
 * waiting for {@link Launcher#HANDOFF_AFTER}, or running on a CPU for ten times that, or a round lasting
 * twenty-five times that: {@link HandoffRule}) the watchdog {@link #supersede supersedes} the loop thread: a new thread serves every
 * port of the device, the stuck one finishes its round and ends, and that port's listener gets a
 * thread of its own until its rounds are quick again. Another channel of the device waits at most that long, plus the
 * watchdog's tick.
 */
final class DeviceLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(DeviceLoop.class);
    private static final long ERROR_LOG_INTERVAL_NANOS = 5_000_000_000L;
    /** Threads' CPU clocks, or {@code null} where the JVM does not measure them (then wall time stands in). */
    private static final @Nullable ThreadMXBean CPU_CLOCKS = cpuClocks();

    private final int device;
    private final int batchSize;
    private final IdleStrategy idle;
    private final Doze doze;
    /** Runs on a publishing thread when a frame comes for a port of the dozing loop: {@link #wake()}. Made once. */
    private final Runnable waker = this::wake;
    /** Called when the loop stops dozing: the watchdog ticks again (it sleeps while every loop dozes). */
    private final Runnable awake;
    private final HandoffRule handoff;
    private final CopyOnWriteArrayList<PortDriver> ports = new CopyOnWriteArrayList<>();
    /** The same ports as an array for the loop: iterating the list allocated an iterator per pass. */
    private volatile PortDriver[] polled = new PortDriver[0];
    private volatile boolean running;
    /** The thread serving the device now; a thread that finds it is not this one stops. */
    private volatile @Nullable Thread thread;
    /** When the current port step began (0: between steps), and its port: what the watchdog watches. */
    private volatile long stepSince;
    private volatile @Nullable PortDriver stepPort;
    // the watchdog's view of the listener call in progress (watchdog thread only)
    private @Nullable PortDriver watchedPort;
    private long watchedCalls;
    private long watchedSince;
    private long watchedCpuSince;
    private int generation;
    private long lastErrorLogNanos;
    private volatile long passes;
    /** When the loop began to doze (its consumers caught up for a while), 0 while awake: the watchdog reads it. */
    private volatile long dozingSince;
    /** The doze whose ports the watchdog checked for stalls once (watchdog thread only). */
    private long stallCheckedDoze;

    DeviceLoop(int device, int batchSize, IdleStrategy idle, boolean dozes, Doze.Times dozeTimes, Runnable awake, long handoffNanos) {
        this.device = device;
        this.handoff = new HandoffRule(handoffNanos);
        this.batchSize = batchSize;
        this.idle = idle;
        this.doze = new Doze(dozes, dozeTimes);
        this.awake = awake;
    }

    int device() {
        return device;
    }

    void add(PortDriver port) {
        synchronized (ports) { // not the loop's monitor: stop() holds that while it joins the loop thread
            ports.addIfAbsent(port);
            polled = ports.toArray(new PortDriver[0]);
            Thread t = thread;
            if (t != null) {
                port.engage(t);
            }
        }
        wake(); // a dozing loop arms the new port's bell (or finds its frames) on its next pass
    }

    void remove(PortDriver port) {
        synchronized (ports) {
            ports.remove(port);
            polled = ports.toArray(new PortDriver[0]);
        }
        port.disarmWake();
    }

    CopyOnWriteArrayList<PortDriver> ports() {
        return ports;
    }

    long passes() {
        return passes;
    }

    /** Whether the loop dozes: no listener call can be in progress on it, and it polls its ports rarely. */
    boolean dozing() {
        return dozingSince != 0;
    }

    synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        startThread();
    }

    /** A new loop thread, engaged with every port before it polls; returns it. */
    private Thread startThread() {
        Thread t = Channels.listenerThread(this, "seqlink-launcher-" + device + (generation++ == 0 ? "" : "-" + generation));
        synchronized (ports) {
            thread = t;
            stepSince = 0;
            stepPort = null;
            for (PortDriver p : ports) {
                p.engage(t); // users may no longer poll these ports; a superseded loop thread gets nothing
            }
        }
        t.start();
        return t;
    }

    /**
     * The watchdog's look, every tick: hands the listener in progress over ({@link HandoffRule}) when it
     * holds the loop thread up. Then that port's listener gets a thread of its own and a new loop thread
     * serves the device. True when it did.
     */
    synchronized boolean supersede(long nowNanos) {
        long since = stepSince;
        PortDriver stuck = stepPort;
        Thread old = thread;
        if (!running || old == null || since == 0 || stuck == null || !stuck.inListener()) {
            watchedPort = null;
            return false; // only a listener is handed over: a loop waiting on its device would wait on any thread
        }
        long calls = stuck.listenerCalls();
        long cpu = cpuTime(old, nowNanos);
        if (stuck != watchedPort || calls != watchedCalls) {
            watchedPort = stuck;
            watchedCalls = calls;
            watchedSince = nowNanos;
            watchedCpuSince = cpu;
        }
        long call = nowNanos - watchedSince;
        Thread.State state = old.getState();
        boolean waiting = state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED;
        if (!handoff.handOver(call, cpu - watchedCpuSince, nowNanos - since, waiting)) {
            return false;
        }
        stuck.delegate();
        watchedPort = null;
        Thread next = startThread();
        log.atWarn().addKeyValue(LogKeys.CHANNEL, stuck.port().channel()).addKeyValue(LogKeys.DEVICE, device)
                .log("seqlink launcher for device {}: the listener of {} held the device's loop for {} ms ({}, its call {} ms on a CPU); "
                + "it gets a thread of its own until its rounds are quick again, and thread '{}' serves the device's other consumers "
                + "(the old one ends when the listener returns)", device, stuck.port(), TimeUnit.NANOSECONDS.toMillis(nowNanos - since),
                waiting ? "waiting" : "running", TimeUnit.NANOSECONDS.toMillis(cpu - watchedCpuSince), next.getName());
        return true;
    }

    /** {@code t}'s CPU time, or {@code wallNanos} where the JVM does not measure it (or {@code t} ended). */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() is Java 19+
    private static long cpuTime(Thread t, long wallNanos) {
        long cpu = CPU_CLOCKS == null ? -1 : CPU_CLOCKS.getThreadCpuTime(t.getId());
        return cpu < 0 ? wallNanos : cpu;
    }

    private static @Nullable ThreadMXBean cpuClocks() {
        try {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            if (threads.isThreadCpuTimeSupported()) {
                if (!threads.isThreadCpuTimeEnabled()) {
                    threads.setThreadCpuTimeEnabled(true);
                }
                return threads;
            }
        } catch (RuntimeException | LinkageError ex) {
            log.debug("seqlink launcher: no thread CPU clocks ({}); wall time decides listener hand-overs", ex.toString());
        }
        return null;
    }

    /** Stops the loop within {@code deadlineNanos} (it waits for no listener: a stuck one was superseded) and the ports' listener threads. */
    synchronized void stop(long deadlineNanos) {
        running = false;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t); // a dozing loop sees the stop at once
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (ports) {
            thread = null;
            for (PortDriver p : ports) {
                p.disengage(deadlineNanos);
            }
        }
    }

    boolean running() {
        return running;
    }

    /**
     * The loop: a pass polls every subscribed port, then idles: with the strategy while awake; once every
     * consumer has been caught up for a while, it dozes ({@link Doze}) until a publish for one of its ports
     * wakes it, or for one full pass interval at most.
     */
    @Override
    public void run() {
        Thread me = Thread.currentThread();
        try {
            loop(me);
        } finally {
            if (thread == me) { // stopped; a superseded thread leaves the bells to the loop's new thread
                disarm();
            }
        }
    }

    private void loop(Thread me) {
        doze.awake(System.nanoTime()); // the quiet period starts with the loop, not when its ports were registered
        while (running && thread == me) {
            int work = 0;
            for (PortDriver port : polled) {
                if (thread != me) {
                    return; // superseded while a listener held us: the new thread serves the device
                }
                ConsumerPort p = port.port();
                if (p.state() == ConsumerState.CLOSED) {
                    remove(port);
                    port.release();
                    continue;
                }
                if (p.subscribed()) {
                    work += step(port, me);
                }
            }
            if (thread != me) {
                return;
            }
            passes++;
            idleAfter(work);
        }
    }

    /** One port's round step, timed for the watchdog; the frames a finished round took. */
    private int step(PortDriver port, Thread me) {
        stepPort = port;
        stepSince = System.nanoTime();
        try {
            return port.poll(batchSize);
        } catch (Throwable t) {
            long now = System.nanoTime();
            if (now - lastErrorLogNanos > ERROR_LOG_INTERVAL_NANOS) {
                lastErrorLogNanos = now;
                log.atError().addKeyValue(LogKeys.CHANNEL, port.port().channel()).addKeyValue(LogKeys.DEVICE, device).setCause(t)
                        .log("seqlink launcher for device {}: polling {} failed", device, port.port());
            }
            return 0;
        } finally {
            if (thread == me) {
                stepSince = 0;
                stepPort = null;
            }
        }
    }

    /**
     * After a pass that found {@code work} frames: the strategy's idle, or a doze until a publish wakes the loop. A
     * doze arms its ports' publish bells first, then looks whether frames wait (after the bells' fence): a frame
     * published before the arm is seen by that look, one published after it rings the bell.
     */
    private void idleAfter(int work) {
        long now = System.nanoTime();
        if (dozingSince != 0) { // a pass after a doze: awake again if it found work or frames wait
            if (work == 0 && !anyPortHoldsLoopAwake() && !armAndLook()) {
                LockSupport.parkNanos(this, doze.fullPassNanos());
                return;
            }
            wakeUp(now);
            return;
        }
        if (doze.quiet(work, now) && !anyPortHoldsLoopAwake()) {
            dozingSince = now; // before the arm: a ring that finds the waker finds the loop dozing
            if (!armAndLook()) {
                LockSupport.parkNanos(this, doze.fullPassNanos());
                return;
            }
            wakeUp(now); // frames came as it began to doze
            return;
        }
        idle.idle(work);
    }

    /**
     * Arms the publish bell of every port the loop serves now (active, with a listener; the others' resume or
     * subscribe unparks the loop), then looks: whether frames wait.
     */
    private boolean armAndLook() {
        for (PortDriver port : polled) {
            port.armWake(waker);
        }
        return framesWait();
    }

    /** Whether a port of the loop takes frames no publish here announces (an attached channel's): then it never dozes. */
    private boolean anyPortHoldsLoopAwake() {
        for (PortDriver port : polled) {
            if (port.holdsLoopAwake()) {
                return true;
            }
        }
        return false;
    }

    /** The doze ends: the bells are emptied, the strategy starts over and the watchdog ticks again. */
    private void wakeUp(long now) {
        disarm();
        dozingSince = 0;
        doze.awake(now);
        idle.reset();
        awake.run();
    }

    private void disarm() {
        for (PortDriver port : polled) {
            port.disarmWake();
        }
    }

    /** Whether any active, subscribed port of the device has frames waiting (published, not acknowledged). */
    boolean framesWait() {
        for (PortDriver port : polled) {
            if (framesWait(port.port())) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code p} is an active, subscribed consumer with frames waiting (published, not acknowledged). */
    static boolean framesWait(ConsumerPort p) {
        return p.subscribed() && p.state() == ConsumerState.ACTIVE && p.backlog() > 0;
    }

    /** Wakes the loop from its doze (frames wait, or a port changed). Any thread; allocates nothing. */
    void wake() {
        Thread t = thread;
        if (t != null && dozingSince != 0) {
            LockSupport.unpark(t);
        }
    }

    /** The ports as the loop polls them. Any thread (a snapshot). */
    PortDriver[] polled() {
        return polled;
    }

    /**
     * Whether the watchdog should look at the loop's ports for stalls now: while the loop is awake, and once when
     * it begins a doze (a port may still carry a stall flag its last frames cleared); a dozing loop has no frame
     * waiting, so no port of it can stall. Watchdog thread.
     */
    boolean stallCheckDue() {
        long since = dozingSince;
        if (since == 0) {
            stallCheckedDoze = 0;
            return true;
        }
        if (since != stallCheckedDoze) {
            stallCheckedDoze = since;
            return true;
        }
        return false;
    }

    /** Whether {@link #stallCheckDue()} would be true now (it changes nothing). Watchdog thread. */
    boolean stallCheckPending() {
        long since = dozingSince;
        return since == 0 || since != stallCheckedDoze;
    }

    /** When the loop began its doze, 0 while awake. */
    long dozingSince() {
        return dozingSince;
    }
}
