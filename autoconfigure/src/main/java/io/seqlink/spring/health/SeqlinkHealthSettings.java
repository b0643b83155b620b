package io.seqlink.spring.health;

/**
 * When health reports a degraded state.
 *
 * @param lagThreshold   fraction of a channel's slots (0 to 1) at which a consumer counts as lagging
 * @param failOnDegraded report DOWN instead of {@link SeqlinkHealthStatus#DEGRADED}
 */
public record SeqlinkHealthSettings(double lagThreshold, boolean failOnDegraded) {

    public static SeqlinkHealthSettings defaults() {
        return new SeqlinkHealthSettings(0.75, false);
    }
}
