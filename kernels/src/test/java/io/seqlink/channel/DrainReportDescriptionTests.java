package io.seqlink.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The drain report as the shutdown's log line prints it: for people, not a record's fields. */
class DrainReportDescriptionTests {

    @Test
    void aCleanDrainSaysEveryFrameWasDelivered() {
        assertThat(new DrainReport("frames", 500, Map.of(1, 0L), false).describe())
                .isEqualTo("channel 'frames': every one of 500 published frame(s) delivered");
    }

    @Test
    void anUncleanDrainNamesWhatWasLeftPerConsumerAndWhy() {
        DrainReport r = new DrainReport("frames", 500, Map.of(2, 3L, 1, 12L), true, 4, Map.of(1, "camera.onFrame"), false);
        assertThat(r.describe()).isEqualTo("channel 'frames': 500 published; undelivered to consumer 1: 12, to consumer 2: 3; "
                + "the drain timed out; 4 claimed frame(s) never published; still in a call on consumer 1: camera.onFrame "
                + "(the channel's memory is freed when it returns)");
        assertThat(r.describe()).doesNotContain("DrainReport[", "{", "=");
    }

    @Test
    void aDrainCutShortWithEverythingDeliveredSaysSo() {
        assertThat(new DrainReport("results-1", 7, Map.of(), false, 0, Map.of(), true).describe())
                .isEqualTo("channel 'results-1': 7 published, every one delivered; the drain was interrupted");
    }
}
