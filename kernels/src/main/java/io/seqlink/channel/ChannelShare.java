package io.seqlink.channel;

import io.seqlink.security.SharedSecret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a channel is shared with consumer processes of the same host ({@link ChannelSpec.Builder#share}): the
 * directory its shared-memory region ({@code <channel>.shm}) and attach socket ({@code <channel>.sock}) are created
 * in, owner-only; the secret an attaching process must prove; how many processes may be attached at once; and how
 * often each side raises its heartbeat. A dead peer is noticed when its connection ends, or at the latest once its
 * heartbeat has not moved for the channel's stall timeout.
 *
 * @param directory        where the region and socket live: created {@code 0700} when missing; an existing one must
 *                         belong to this process's user and give group and others no access
 * @param secret           what an attaching process proves knowledge of ({@code PeerChallenge})
 * @param seats            the most consumer processes attached at once (1 to 64)
 * @param heartbeat        how often each side raises its heartbeat; {@code null}: a tenth of the stall timeout
 * @param handshakeTimeout how long an attach may take before the producer closes the connection
 */
public record ChannelShare(Path directory, SharedSecret secret, int seats, @Nullable Duration heartbeat, Duration handshakeTimeout) {

    /** The most seats a region has. */
    public static final int MAX_SEATS = 64;
    public static final int DEFAULT_SEATS = 4;
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(5);

    public ChannelShare {
        Objects.requireNonNull(directory, "ChannelShare.directory");
        Objects.requireNonNull(secret, "ChannelShare.secret");
        Objects.requireNonNull(handshakeTimeout, "ChannelShare.handshakeTimeout");
        if (seats < 1 || seats > MAX_SEATS) {
            throw new IllegalArgumentException("ChannelShare seats must be 1 to " + MAX_SEATS + ", was " + seats);
        }
        if (heartbeat != null && (heartbeat.isNegative() || heartbeat.isZero())) {
            throw new IllegalArgumentException("ChannelShare heartbeat must be positive, was " + heartbeat);
        }
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("ChannelShare handshakeTimeout must be positive, was " + handshakeTimeout);
        }
    }

    /** A share in {@code directory} keyed by {@code secret}, with the default seats and timeouts. */
    public static ChannelShare of(Path directory, SharedSecret secret) {
        return new ChannelShare(directory, secret, DEFAULT_SEATS, null, DEFAULT_HANDSHAKE_TIMEOUT);
    }

    /** This share with {@code seats} seats. */
    public ChannelShare withSeats(int seats) {
        return new ChannelShare(directory, secret, seats, heartbeat, handshakeTimeout);
    }

    /** This share with heartbeats every {@code heartbeat}. */
    public ChannelShare withHeartbeat(Duration heartbeat) {
        return new ChannelShare(directory, secret, seats, heartbeat, handshakeTimeout);
    }

    /** The heartbeat period for a channel whose stall timeout is {@code stallTimeout}: the set one, or a tenth of it (at least 1 ms). */
    public Duration heartbeatFor(Duration stallTimeout) {
        Duration h = heartbeat;
        if (h != null) {
            return h;
        }
        Duration tenth = stallTimeout.dividedBy(10);
        return tenth.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : tenth;
    }
}
