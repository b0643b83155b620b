package io.seqlink.ucx;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A bridge's close as one atomic transition (open to closing, a compare-and-set): the caller that wins
 * it runs the close; every other caller, concurrent or later, gets the winner's report. A caller that
 * finds the close in progress waits for it within its own timeout and returns at once on interrupt
 * (keeping the flag); either way it then gets the state so far, marked timed out. Any thread.
 */
final class CloseOnce {

    private final AtomicReference<CompletableFuture<BridgeCloseReport>> closed = new AtomicReference<>();

    /**
     * Runs {@code closer} if no caller did before, else waits (within {@code timeout}) for the report
     * of the one that does; {@code soFar} gives a report of the state now for a caller that stops
     * waiting (interrupt or timeout).
     */
    BridgeCloseReport close(Duration timeout, Supplier<BridgeCloseReport> closer, Supplier<BridgeCloseReport> soFar) {
        CompletableFuture<BridgeCloseReport> mine = new CompletableFuture<>();
        CompletableFuture<BridgeCloseReport> first = closed.compareAndExchange(null, mine);
        if (first == null) {
            try {
                BridgeCloseReport report = closer.get();
                mine.complete(report);
                return report;
            } catch (RuntimeException | Error ex) {
                mine.completeExceptionally(ex);
                throw ex;
            }
        }
        try {
            return first.get(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException ex) {
            // the close still runs on the first caller's thread
        } catch (ExecutionException ex) {
            throw new IllegalStateException("the bridge's close failed on another thread: " + ex.getCause(), ex.getCause());
        }
        BridgeCloseReport now = soFar.get();
        return new BridgeCloseReport(now.channel(), now.role(), now.taken(), now.confirmed(), now.unconfirmed(), now.localBacklog(),
                true);
    }
}
