package io.seqlink.channel;

import io.seqlink.security.SharedSecret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a consumer process attaches to: the shared channel {@code name} whose producer listens in {@code directory}
 * (the producer's {@link ChannelShare#directory()}), the secret it proves, and the device of this process that runs
 * the consumer (its host listeners read the shared ring in place).
 *
 * @param name           the producer's channel name
 * @param directory      the producer's share directory
 * @param secret         the channel's secret
 * @param device         the device of this runtime whose launcher drives the consumer
 * @param stallTimeout   how long the producer's heartbeat may stand still before the channel turns {@code FAILED};
 *                       {@code null}: the producer's stall timeout, as the handshake gives it
 * @param connectTimeout how long the attach (connect and handshake) may take
 */
public record AttachSpec(String name, Path directory, SharedSecret secret, int device, @Nullable Duration stallTimeout,
        Duration connectTimeout) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    public AttachSpec {
        Objects.requireNonNull(name, "AttachSpec.name");
        Objects.requireNonNull(directory, "AttachSpec.directory");
        Objects.requireNonNull(secret, "AttachSpec.secret");
        Objects.requireNonNull(connectTimeout, "AttachSpec.connectTimeout");
        if (device < 0) {
            throw new IllegalArgumentException("AttachSpec.device must be a device ordinal of 0 or more, was " + device);
        }
        if (stallTimeout != null && (stallTimeout.isNegative() || stallTimeout.isZero())) {
            throw new IllegalArgumentException("AttachSpec.stallTimeout must be positive, was " + stallTimeout);
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("AttachSpec.connectTimeout must be positive, was " + connectTimeout);
        }
    }

    /** An attach to {@code name} in {@code directory} with {@code secret}, consumed on device 0, with the default timeouts. */
    public static AttachSpec of(String name, Path directory, SharedSecret secret) {
        return new AttachSpec(name, directory, secret, 0, null, DEFAULT_CONNECT_TIMEOUT);
    }

    /** This attach consumed on {@code device}. */
    public AttachSpec onDevice(int device) {
        return new AttachSpec(name, directory, secret, device, stallTimeout, connectTimeout);
    }

    /** This attach with its own stall timeout for the producer's heartbeat. */
    public AttachSpec withStallTimeout(Duration stallTimeout) {
        return new AttachSpec(name, directory, secret, device, stallTimeout, connectTimeout);
    }
}
