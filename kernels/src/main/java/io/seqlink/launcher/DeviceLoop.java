package io.seqlink.launcher;

import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PortDriver;
import io.seqlink.idle.IdleStrategy;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The polling loop of one consumer device, on a thread of its own (a driver context is bound to a
 * thread): each pass runs one bounded round step per subscribed, active port on the device, and idles
 * with its strategy when no port found work. The loop, not a GPU thread, decides when to look again.
 * It never runs listener code: each port's listener has its own thread, so a failing, retrying or
 * blocked listener delays no other channel of the device.
 */
final class DeviceLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(DeviceLoop.class);
    private static final long ERROR_LOG_INTERVAL_NANOS = 5_000_000_000L;

    private final int device;
    private final int batchSize;
    private final IdleStrategy idle;
    private final CopyOnWriteArrayList<PortDriver> ports = new CopyOnWriteArrayList<>();
    /** The same ports as an array for the loop: iterating the list allocated an iterator per pass. */
    private volatile PortDriver[] polled = new PortDriver[0];
    private volatile boolean running;
    private volatile Thread thread;
    private long lastErrorLogNanos;
    private volatile long passes;

    DeviceLoop(int device, int batchSize, IdleStrategy idle) {
        this.device = device;
        this.batchSize = batchSize;
        this.idle = idle;
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
    }

    void remove(PortDriver port) {
        synchronized (ports) {
            ports.remove(port);
            polled = ports.toArray(new PortDriver[0]);
        }
    }

    CopyOnWriteArrayList<PortDriver> ports() {
        return ports;
    }

    long passes() {
        return passes;
    }

    synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        Thread t = new Thread(this, "seqlink-launcher-" + device);
        t.setDaemon(true);
        synchronized (ports) {
            thread = t;
            for (PortDriver p : ports) {
                p.engage(t); // users may no longer poll these ports
            }
        }
        t.start();
    }

    /** Stops the loop (it runs no listener, so it ends within a pass) and the ports' listener threads by {@code deadlineNanos}. */
    synchronized void stop(long deadlineNanos) {
        running = false;
        Thread t = thread;
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

    @Override
    public void run() {
        while (running) {
            int work = 0;
            for (PortDriver port : polled) {
                if (port.port().state() == ConsumerState.CLOSED) {
                    remove(port);
                    port.release();
                    continue;
                }
                if (!port.port().subscribed()) {
                    continue;
                }
                try {
                    work += port.poll(batchSize);
                } catch (Throwable t) {
                    long now = System.nanoTime();
                    if (now - lastErrorLogNanos > ERROR_LOG_INTERVAL_NANOS) {
                        lastErrorLogNanos = now;
                        log.error("seqlink launcher for device {}: polling {} failed", device, port.port(), t);
                    }
                }
            }
            passes++;
            idle.idle(work);
        }
    }
}
