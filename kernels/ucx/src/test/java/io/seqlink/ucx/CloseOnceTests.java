package io.seqlink.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A bridge's close runs once whoever calls it, and a caller waiting for another's close honours interrupts and its timeout. */
class CloseOnceTests {

    private static final BridgeCloseReport DONE = new BridgeCloseReport("c", BridgeSnapshot.Role.SEND, 5, 5, 0, 0, false);
    private static final BridgeCloseReport SO_FAR = new BridgeCloseReport("c", BridgeSnapshot.Role.SEND, 5, 3, 2, 0, false);

    @Test
    void concurrentCallersRunTheCloseOnceAndAllGetItsReport() throws Exception {
        CloseOnce once = new CloseOnce();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> callers = new ArrayList<>();
        List<BridgeCloseReport> reports = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 8; i++) {
            Thread t = new Thread(() -> {
                awaitQuietly(go);
                reports.add(once.close(Duration.ofSeconds(10), () -> {
                    runs.incrementAndGet();
                    return DONE;
                }, () -> SO_FAR));
            });
            t.start();
            callers.add(t);
        }
        go.countDown();
        for (Thread t : callers) {
            t.join(10_000);
        }
        assertThat(runs).hasValue(1);
        assertThat(reports).hasSize(8).containsOnly(DONE);
        assertThat(once.close(Duration.ZERO, () -> SO_FAR, () -> SO_FAR)).isSameAs(DONE);
    }

    @Test
    void aCallerWaitingForAnotherThreadsCloseReturnsAtOnceOnInterruptKeepingTheFlag() throws Exception {
        CloseOnce once = new CloseOnce();
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread first = closingOnAnotherThread(once, closing, release);
        assertThat(closing.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicReference<BridgeCloseReport> got = new AtomicReference<>();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            got.set(once.close(Duration.ofSeconds(30), () -> DONE, () -> SO_FAR));
            flagKept.set(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (waiter.getState() != Thread.State.WAITING && waiter.getState() != Thread.State.BLOCKED
                && waiter.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        waiter.interrupt();
        waiter.join(2_000);
        try {
            assertThat(waiter.isAlive()).as("the waiting caller returned after the interrupt").isFalse();
            assertThat(flagKept).isTrue();
            assertThat(got.get()).isEqualTo(new BridgeCloseReport("c", BridgeSnapshot.Role.SEND, 5, 3, 2, 0, true));
        } finally {
            release.countDown();
            first.join(10_000);
            waiter.join(10_000);
        }
    }

    @Test
    void aCallerWaitingForAnotherThreadsCloseReturnsAfterItsOwnTimeoutWithTheStateSoFar() throws Exception {
        CloseOnce once = new CloseOnce();
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread first = closingOnAnotherThread(once, closing, release);
        AtomicReference<BridgeCloseReport> got = new AtomicReference<>();
        Thread waiter = new Thread(() -> got.set(once.close(Duration.ofMillis(20), () -> DONE, () -> SO_FAR)));
        try {
            assertThat(closing.await(10, TimeUnit.SECONDS)).isTrue();
            waiter.start();
            waiter.join(2_000);
            assertThat(waiter.isAlive()).as("the waiting caller returned after its 20 ms").isFalse();
            assertThat(got.get().timedOut()).isTrue();
            assertThat(got.get().unconfirmed()).isEqualTo(2);
        } finally {
            release.countDown();
            first.join(10_000);
            waiter.join(10_000);
        }
        assertThat(once.close(Duration.ZERO, () -> SO_FAR, () -> SO_FAR)).isEqualTo(DONE);
    }

    /** Starts a thread whose close counts {@code closing} down, then waits for {@code release} and reports DONE. */
    private static Thread closingOnAnotherThread(CloseOnce once, CountDownLatch closing, CountDownLatch release) {
        Thread first = new Thread(() -> once.close(Duration.ofSeconds(30), () -> {
            closing.countDown();
            awaitQuietly(release);
            return DONE;
        }, () -> SO_FAR));
        first.start();
        return first;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
