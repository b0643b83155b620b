package io.seqlink.launcher;

import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.consumer.PortDriver;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The watchdog's looks at the dozing device loops ({@link Doze}), the safety net behind the publish bells: one look
 * for all of them every {@link Doze.Times#lookNanos} while any loop dozes; a loop with a frame waiting on one of its
 * ports is woken.
 *
 * <p>A look reads one port per channel, not every port: a loop dozes only with every port caught up, so of
 * the dozing loops that consume a channel, the one that began to doze first has acknowledged the least of it
 * (its consumer caught up no later than the others'). The look goes through the dozing loops in the order
 * they began to doze and reads each channel's port on the first of them; a channel found quiet there is quiet
 * on every later one and is not read again in this look; one with frames waiting is read on every loop, each
 * woken where frames wait. A channel with 7 consumers costs one read a look, not 7.
 *
 * <p>{@link #portAdded} and {@link #portRemoved}: any thread; {@link #look}: the watchdog thread only.
 */
final class DozeWatch {

    /** Per channel: {look that found it quiet, ports registered}; entries allocated on registration only. */
    private final Map<String, long[]> channels = new ConcurrentHashMap<>();
    private final long lookNanos;
    private DeviceLoop[] dozing = new DeviceLoop[0];
    private long lookNumber;
    private long nextLook;
    /** Whether {@link #nextLook} is set: some loop dozed at the last look. */
    private boolean scheduled;

    DozeWatch(long lookNanos) {
        this.lookNanos = lookNanos;
    }

    void portAdded(ConsumerPort port) {
        channels.compute(port.channel(), (name, v) -> {
            long[] e = v == null ? new long[] {-1, 0} : v;
            e[1]++;
            return e;
        });
    }

    void portRemoved(ConsumerPort port) {
        channels.computeIfPresent(port.channel(), (name, v) -> --v[1] == 0 ? null : v);
    }

    /**
     * Looks at the dozing loops of {@code loops} when a look is due, waking those with frames waiting; returns the
     * nanoseconds until the next look ({@link Long#MAX_VALUE} when no loop dozes).
     */
    long look(Collection<DeviceLoop> loops, long nowNanos) {
        int n = 0;
        for (DeviceLoop loop : loops) {
            if (loop.dozingSince() != 0) {
                if (n == dozing.length) {
                    DeviceLoop[] bigger = new DeviceLoop[Math.max(8, 2 * n)]; // grows with the devices, once
                    System.arraycopy(dozing, 0, bigger, 0, n);
                    dozing = bigger;
                }
                dozing[n++] = loop;
            }
        }
        if (n == 0) {
            scheduled = false;
            return Long.MAX_VALUE;
        }
        if (!scheduled) { // a loop began to doze: the first look one interval later
            scheduled = true;
            nextLook = nowNanos + lookNanos;
        }
        if (nowNanos - nextLook >= 0) {
            sortBySince(n);
            lookNumber++;
            for (int i = 0; i < n; i++) {
                lookAt(dozing[i]);
            }
            nextLook = nowNanos + lookNanos;
        }
        for (int i = 0; i < n; i++) {
            dozing[i] = null;
        }
        return Math.max(0, nextLook - nowNanos);
    }

    private void lookAt(DeviceLoop loop) {
        for (PortDriver driver : loop.polled()) {
            ConsumerPort p = driver.port();
            long[] channel = channels.get(p.channel());
            if (channel != null && channel[0] == lookNumber) {
                continue; // quiet on a loop that began to doze earlier: quiet here too
            }
            if (DeviceLoop.framesWait(p)) {
                loop.wake();
                return;
            }
            if (channel != null) {
                channel[0] = lookNumber;
            }
        }
    }

    /** Insertion sort of the first {@code n} dozing loops by when they began to doze: a handful of devices. */
    private void sortBySince(int n) {
        for (int i = 1; i < n; i++) {
            DeviceLoop l = dozing[i];
            long since = l.dozingSince();
            int j = i - 1;
            while (j >= 0 && dozing[j].dozingSince() > since) {
                dozing[j + 1] = dozing[j];
                j--;
            }
            dozing[j + 1] = l;
        }
    }
}
