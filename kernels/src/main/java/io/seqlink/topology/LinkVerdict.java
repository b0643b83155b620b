package io.seqlink.topology;

import io.seqlink.backend.LinkAttributes;
import io.seqlink.backend.ProbeMeasurement;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The verifier's judgement of one producer → consumer link, with the figures behind it.
 *
 * @param producer  device that owns the channel's memory
 * @param consumer  device that reads it
 * @param verdict   the best class the link supports
 * @param reason    why, in words
 * @param pull      driver attributes for the consumer reaching the producer's memory
 * @param push      driver attributes for the producer reaching the consumer's memory
 * @param probe     what the probe measured, or {@code null} when the link was not probed
 */
public record LinkVerdict(int producer, int consumer, LinkClass verdict, String reason, LinkAttributes pull,
        LinkAttributes push, @Nullable ProbeMeasurement probe) {

    public LinkVerdict {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(pull, "pull");
        Objects.requireNonNull(push, "push");
    }

    public boolean probed() {
        return probe != null;
    }
}
