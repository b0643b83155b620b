package io.seqlink.sample.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.sample.pipeline.FramePreprocessor.Stop;
import org.junit.jupiter.api.Test;

/** A 503 from {@code POST /api/frames} links to the docs that explain its stop, and only to those. */
class FramesControllerHelpTests {

    @Test
    void aFullPipelineLinksToTheLaggingConsumerSection() {
        assertThat(FramesController.help(Stop.BACK_PRESSURED)).hasToString(
                "https://github.com/seqlink/seqlink/blob/main/docs/troubleshooting.md#a-lagging-consumer");
        assertThat(FramesController.help(Stop.NO_CREDIT)).isEqualTo(FramesController.help(Stop.BACK_PRESSURED));
    }

    @Test
    void aServiceThatIsStoppingLinksToShutdownNotToALaggingConsumer() {
        assertThat(String.valueOf(FramesController.help(Stop.CLOSED))).endsWith("operations.md#shutdown")
                .doesNotContain("lagging");
        assertThat(String.valueOf(FramesController.help(Stop.FAILED))).endsWith("operations.md#health");
        assertThat(FramesController.help(Stop.BUSY)).as("other injections: nothing to read up on").isNull();
    }
}
