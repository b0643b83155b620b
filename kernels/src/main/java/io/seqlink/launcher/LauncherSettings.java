package io.seqlink.launcher;

import io.seqlink.idle.IdleStrategyKind;
import java.time.Duration;
import java.util.Objects;

/**
 * How the launcher polls.
 *
 * @param idleStrategy   what a device loop does when a pass found nothing
 * @param batchSize      most frames one consume round takes (bounded batch per round)
 * @param watchdogPeriod how often the stall watchdog looks at every consumer
 */
public record LauncherSettings(IdleStrategyKind idleStrategy, int batchSize, Duration watchdogPeriod) {

    public static final int DEFAULT_BATCH_SIZE = 32;
    public static final int MAX_BATCH_SIZE = 1 << 16;

    public LauncherSettings {
        Objects.requireNonNull(idleStrategy, "idleStrategy");
        Objects.requireNonNull(watchdogPeriod, "watchdogPeriod");
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("batchSize must be between 1 and " + MAX_BATCH_SIZE + ", was " + batchSize);
        }
        if (watchdogPeriod.isNegative() || watchdogPeriod.isZero()) {
            throw new IllegalArgumentException("watchdogPeriod must be positive, was " + watchdogPeriod);
        }
    }

    public static LauncherSettings defaults() {
        return new LauncherSettings(IdleStrategyKind.BACKOFF, DEFAULT_BATCH_SIZE, Duration.ofMillis(100));
    }
}
