package io.seqlink.channel.consumer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixed set of 64-bit counters with one writer each, readable from any thread without locks: the
 * owner writes with opaque stores, readers take opaque loads (a snapshot may mix counters from
 * slightly different moments, never a torn value). Padded so neighbouring sets do not false-share.
 */
final class CounterSet {

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int PAD = 8;

    private final long[] values;

    CounterSet(int count) {
        this.values = new long[count + 2 * PAD];
    }

    /** Owner only. */
    void add(int counter, long delta) {
        int i = counter + PAD;
        SLOT.setOpaque(values, i, (long) SLOT.getOpaque(values, i) + delta);
    }

    /** Owner only. */
    void increment(int counter) {
        add(counter, 1);
    }

    /** Owner only. */
    void set(int counter, long value) {
        SLOT.setOpaque(values, counter + PAD, value);
    }

    /** Owner only: raises the counter to {@code value} if it is lower. */
    void max(int counter, long value) {
        int i = counter + PAD;
        if ((long) SLOT.getOpaque(values, i) < value) {
            SLOT.setOpaque(values, i, value);
        }
    }

    long get(int counter) {
        return (long) SLOT.getOpaque(values, counter + PAD);
    }

    /** Owner only: raises the counter to {@code value} with release order, for a reader that acquires it ({@link #getAcquire}). */
    void raiseRelease(int counter, long value) {
        int i = counter + PAD;
        if ((long) SLOT.getOpaque(values, i) < value) {
            SLOT.setRelease(values, i, value);
        }
    }

    /** The counter with acquire order: every counter its owner wrote before the matching {@link #raiseRelease} is visible. */
    long getAcquire(int counter) {
        return (long) SLOT.getAcquire(values, counter + PAD);
    }
}
