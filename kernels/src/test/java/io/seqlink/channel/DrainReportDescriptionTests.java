package io.seqlink.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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

    @Test
    void aSharedChannelsDrainNamesEachAttachedProcessThatLeftFramesUnacknowledged() {
        DrainReport r = new DrainReport("frames", 500, Map.of(), false, 0, Map.of(), false, List.of(
                new DrainReport.AttachedAtClose(0, 3, 4242, 500, 0, false),
                new DrainReport.AttachedAtClose(1, 4, 4343, 480, 20, true)));
        assertThat(r.clean()).isFalse();
        assertThat(r.describe()).isEqualTo("channel 'frames': 500 published, every one delivered; unacknowledged by attached "
                + "process 4343 (seat 1, epoch 4, dropped while the drain waited): 20");
        DrainReport clean = new DrainReport("frames", 500, Map.of(), false, 0, Map.of(), false, List.of(
                new DrainReport.AttachedAtClose(0, 3, 4242, 500, 0, false)));
        assertThat(clean.clean()).isTrue();
        assertThat(clean.describe()).isEqualTo("channel 'frames': every one of 500 published frame(s) delivered, and "
                + "acknowledged by 1 attached process(es)");
    }
}
