package io.seqlink.launcher;

import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerState;
import org.agrona.concurrent.IdleStrategy;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The polling loop of one consumer device, on a thread of its own (a driver context is bound to a
 * thread): each pass runs one bounded round per subscribed, active port on the device, and idles
 * with its strategy when no port found work. The loop, not a GPU thread, decides when to look again.
 */
final class DeviceLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(DeviceLoop.class);
    private static final long ERROR_LOG_INTERVAL_NANOS = 5_000_000_000L;

    private final int device;
    private final int batchSize;
    private final IdleStrategy idle;
    private final CopyOnWriteArrayList<ConsumerPort> ports = new CopyOnWriteArrayList<>();
    /** The same ports as an array for the loop: iterating the list allocated an iterator per pass. */
    private volatile ConsumerPort[] polled = new ConsumerPort[0];
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

    void add(ConsumerPort port) {
        synchronized (ports) { // not the loop's monitor: stop() holds that while it joins the loop thread
            ports.addIfAbsent(port);
            polled = ports.toArray(new ConsumerPort[0]);
        }
    }

    void remove(ConsumerPort port) {
        synchronized (ports) {
            ports.remove(port);
            polled = ports.toArray(new ConsumerPort[0]);
        }
    }

    CopyOnWriteArrayList<ConsumerPort> ports() {
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
        thread = t;
        t.start();
    }

    synchronized void stop() {
        running = false;
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        thread = null;
    }

    boolean running() {
        return running;
    }

    @Override
    public void run() {
        while (running) {
            int work = 0;
            for (ConsumerPort port : polled) {
                if (port.state() == ConsumerState.CLOSED) {
                    remove(port);
                    continue;
                }
                if (!port.subscribed()) {
                    continue;
                }
                try {
                    work += port.poll(batchSize);
                } catch (Throwable t) {
                    long now = System.nanoTime();
                    if (now - lastErrorLogNanos > ERROR_LOG_INTERVAL_NANOS) {
                        lastErrorLogNanos = now;
                        log.error("seqlink launcher for device {}: polling {} failed", device, port, t);
                    }
                }
            }
            passes++;
            idle.idle(work);
        }
    }
}
