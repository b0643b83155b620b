package io.seqlink.channel.consumer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jspecify.annotations.Nullable;

/**
 * How a channel's publish wakes the device loops that doze on its consumers: a loop that begins to doze arms the
 * bell of each of its active, subscribed ports with its waker, then looks once more whether frames wait; the
 * producer rings the bell after every publish step, and a ring runs the wakers armed. Whichever of the two comes
 * second sees the other (a store, a full fence, then a load, on both sides): the loop sees the frame, or the ring
 * sees the loop's waker. So a frame published while its consumers' loops doze is seen at its publish, not at a
 * later look. While nobody dozes, a ring costs one volatile read (after the fence) and allocates nothing.
 *
 * <p>One bell per channel, one slot per consumer port. {@link #ring()}: any producer thread. {@link #arm} and
 * {@link #disarm}: the loop that drives the slot's port (through {@link PortDriver}), or any thread removing the
 * port from its loop; each is atomic, and the count of armed slots stays exact under any interleaving of them.
 */
public final class PublishBell {

    private static final VarHandle ARMED;

    static {
        try {
            ARMED = MethodHandles.lookup().findVarHandle(PublishBell.class, "armed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How many slots hold a waker: the one word a ring reads while nobody dozes. */
    private volatile int armed;
    private final AtomicReferenceArray<@Nullable Runnable> wakers;

    /** A bell of {@code slots} slots, one per consumer port of the channel. */
    public PublishBell(int slots) {
        this.wakers = new AtomicReferenceArray<>(slots);
    }

    /**
     * After a publish step's published count is stored: runs every armed waker (it unparks a dozing loop; it does
     * not disarm). Any thread; allocates nothing.
     */
    public void ring() {
        VarHandle.fullFence(); // the published count before the look at the slots: the other half of arm()'s fence
        if ((int) ARMED.getVolatile(this) == 0) {
            return;
        }
        for (int i = 0, n = wakers.length(); i < n; i++) {
            Runnable w = wakers.get(i);
            if (w != null) {
                w.run();
            }
        }
    }

    /**
     * Puts {@code waker} in {@code slot}, then fences: a look at the published count after this returns sees every
     * publish whose ring did not see the waker.
     */
    void arm(int slot, Runnable waker) {
        if (wakers.getAndSet(slot, waker) == null) {
            ARMED.getAndAdd(this, 1);
        }
        VarHandle.fullFence();
    }

    /** Empties {@code slot}: rings no longer run its waker. */
    void disarm(int slot) {
        if (wakers.getAndSet(slot, null) != null) {
            ARMED.getAndAdd(this, -1);
        }
    }

    /** Whether {@code slot} holds a waker (tests and diagnostics). */
    boolean armed(int slot) {
        return wakers.get(slot) != null;
    }
}
