package io.seqlink.sample.split;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The split pipeline's settings ({@code sample.split.*}), set by the {@code split-producer} and {@code split-consumer}
 * profiles; the channel itself is {@code seqlink.channels.frames} (producer) and {@code seqlink.attach.frames}
 * (consumer).
 *
 * @param role       Which stage this process runs: 'producer' (prepares frames and publishes them on the shared
 *                   channel) or 'consumer' (attached to it, infers every frame and checks it against the host's
 *                   reference).
 * @param channel    The shared channel's name.
 * @param rate       Frames per second the producer prepares; 0 as fast as the consumers take them.
 * @param pixels     Pixels of one synthetic 8-bit image, carried as float32 behind a 64-byte header.
 * @param classes    Rows of the model's weight matrix: the length of each result.
 * @param mean       Normalisation: x = (pixel / 255 - mean) / std.
 * @param std        Normalisation divisor, positive.
 * @param weightSeed Seed of the model weights (both processes derive them from it).
 */
@ConfigurationProperties("sample.split")
public record SplitProperties(String role, @DefaultValue("frames") String channel, @DefaultValue("200") double rate,
        @DefaultValue("1024") int pixels, @DefaultValue("16") int classes, @DefaultValue("0.5") float mean,
        @DefaultValue("0.25") float std, @DefaultValue("7") long weightSeed) {
}
