package io.seqlink.spring.health;

import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ConsumerSnapshot;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The health of a channel this process attached to from another process ({@code seqlink.attach.<name>}): UP while
 * attached, DOWN with the reason once it turned FAILED (the producer died, stood still for the stall timeout, closed
 * the channel, or dropped this consumer), OUT_OF_SERVICE once closed. Reads the attachment's state and its consumer's
 * host mirror only. Any thread.
 */
public class AttachedChannelHealthIndicator implements HealthIndicator {

    private final AttachedChannel channel;

    public AttachedChannelHealthIndicator(AttachedChannel channel) {
        this.channel = channel;
    }

    @Override
    public Health health() {
        ChannelState state = channel.state();
        Status status = switch (state) {
            case OPEN -> Status.UP;
            case FAILED -> Status.DOWN;
            default -> Status.OUT_OF_SERVICE;
        };
        Health.Builder b = Health.status(status)
                .withDetail("attached", true)
                .withDetail("state", state)
                .withDetail("seat", channel.seat())
                .withDetail("epoch", channel.epoch())
                .withDetail("startsAfter", channel.startsAfter())
                .withDetail("device", channel.consumer().device());
        Throwable failure = channel.failure();
        if (failure != null) {
            b.withDetail("failure", String.valueOf(failure.getMessage()));
        }
        if (state != ChannelState.CLOSED) { // a closed attachment released its mapping
            try {
                ConsumerSnapshot c = channel.consumer().snapshot();
                b.withDetail("consumerState", c.state()).withDetail("acknowledged", c.acknowledged()).withDetail("delivered", c.delivered())
                        .withDetail("retrying", c.retrying()).withDetail("deadLettered", c.deadLettered());
            } catch (RuntimeException closedMeanwhile) {
                // closed between the state check and the read: the state says so
            }
        }
        return b.build();
    }
}
