package io.seqlink.sample.pipeline;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The sample pipeline's own settings ({@code sample.pipeline.*}); the channels themselves are
 * configured under {@code seqlink.channels}.
 *
 * @param enabled              Whether the pipeline runs. The {@code verify} command turns it off: it only needs the
 *                             verified topology.
 * @param framesChannel        The channel that carries prepared frames from the producer device to the inference
 *                             devices.
 * @param resultsChannelPrefix Inference device d sends its results on the channel named this prefix followed by d
 *                             (a channel has one producer, so there is one results channel per inference device).
 * @param pixels               Pixels of one synthetic 8-bit grey image (32 x 32 = 1024). A frame carries them as
 *                             float32 after normalisation, behind a 64-byte header.
 * @param classes              Rows of the model's weight matrix: the length of each result vector.
 * @param mean                 Normalisation: {@code x = (pixel / 255 - mean) / std}.
 * @param std                  Normalisation divisor, positive.
 * @param weightSeed           Seed of the model weights, generated on every inference device by the pattern and
 *                             normalise kernels (the collector recomputes them on the host).
 * @param maxInFlight          Most frames between preparation and collection. The producer waits for credit beyond
 *                             it, so results always have room on the inference devices and no listener ever waits.
 * @param verifyEvery          The collector recomputes the whole inference on the host for every n-th result (1: all);
 *                             the checksums of every result are always checked.
 * @param sourceRate           Frames per second a background source prepares without being asked; 0 turns it off
 *                             (frames then come only from {@code POST /api/frames}).
 * @param maxInject            Most frames one {@code POST /api/frames} may ask for.
 * @param publishTimeout       How long one injection waits for credit and free slots before answering 503.
 */
@ConfigurationProperties("sample.pipeline")
public record PipelineProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("frames") String framesChannel,
        @DefaultValue("results-") String resultsChannelPrefix,
        @DefaultValue("1024") int pixels,
        @DefaultValue("16") int classes,
        @DefaultValue("0.5") float mean,
        @DefaultValue("0.25") float std,
        @DefaultValue("7") long weightSeed,
        @DefaultValue("256") int maxInFlight,
        @DefaultValue("1") int verifyEvery,
        @DefaultValue("20") double sourceRate,
        @DefaultValue("10000") int maxInject,
        @DefaultValue("5s") Duration publishTimeout) {
}
