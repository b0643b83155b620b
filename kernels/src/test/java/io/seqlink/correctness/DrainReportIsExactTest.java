package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A drain that times out on a listener blocked in the middle of a round reports exactly: the frames
 * handed to the listener (the one it blocks in included) are delivered, every other accepted frame is
 * undelivered, and none of those reaches the listener afterwards, so a user replaying the undelivered
 * frames duplicates nothing. Only the channel that did not drain says it timed out.
 */
class DrainReportIsExactTest {

    private static final int FRAMES = 20;
    private static final long BLOCK_AT = 5;

    @Test
    void aListenerBlockedMidRoundGetsNoFrameAfterTheReportAndTheReportCountsTheRest() throws Exception {
        Shutdown s = shutDownWhileOneListenerBlocks();
        DrainReport b = s.reports.get(0);
        assertThat(b.channel()).isEqualTo("blocked");
        assertThat(b.published()).isEqualTo(FRAMES);
        assertThat(s.atReport).as("handed to the listener by the report").containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(s.handed).as("handed to the listener in all: nothing after the report, nothing twice").isEqualTo(s.atReport);
        assertThat(s.atReport.size() + b.undelivered().getOrDefault(1, 0L)).as("delivered + undelivered").isEqualTo(FRAMES);
        assertThat(b.timedOut()).isTrue();
        assertThat(b.listenersNotReturned()).containsKey(1);
    }

    @Test
    void onlyTheChannelThatDidNotDrainSaysItTimedOut() throws Exception {
        DrainReport c = shutDownWhileOneListenerBlocks().reports.get(1);
        assertThat(c.channel()).isEqualTo("clean");
        assertThat(c.clean()).as("the channel beside it drained: %s", c).isTrue();
        assertThat(c.timedOut()).as("the channel beside it did not time out: %s", c).isFalse();
    }

    /** The drain's reports, and the sequences the blocked listener was handed by the report and in all. */
    private record Shutdown(List<DrainReport> reports, List<Long> atReport, List<Long> handed) {
    }

    /**
     * Two channels on one device, {@value #FRAMES} frames each in one round; the listener of "blocked"
     * blocks at frame {@value #BLOCK_AT}, "clean" takes everything; then the runtime drains both with a
     * 300 ms timeout and the blocked listener is released once the reports are in.
     */
    private static Shutdown shutDownWhileOneListenerBlocks() throws Exception {
        SeqlinkRuntime rt = Rig.runtime(2).open();
        EmulatedBackend backend = Rig.emulated(rt);
        int baseline = backend.liveAllocations();
        PublishChannel blocked = rt.openChannel(Rig.channel("blocked", 0, 1).build());
        PublishChannel clean = rt.openChannel(Rig.channel("clean", 0, 1).build());
        List<Long> handed = new CopyOnWriteArrayList<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        blocked.consumer(1).subscribe(frame -> {
            handed.add(frame.sequence());
            if (frame.sequence() == BLOCK_AT) {
                entered.countDown();
                release.await();
            }
        });
        AtomicLong cleanDelivered = new AtomicLong();
        clean.consumer(1).subscribe(frame -> cleanDelivered.incrementAndGet());
        for (int i = 1; i <= FRAMES; i++) { // before the start: the first round takes them all
            assertThat(blocked.offer(Rig.frame(i, 1), 0, 24)).isEqualTo(i);
            assertThat(clean.offer(Rig.frame(i, 2), 0, 24)).isEqualTo(i);
        }
        rt.start();
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(Rig.await(Duration.ofSeconds(10), () -> cleanDelivered.get() == FRAMES)).isTrue();

        List<DrainReport> reports = rt.drainAndCloseChannels(Duration.ofMillis(300));
        List<Long> atReport = List.copyOf(handed);
        release.countDown();
        assertThat(Rig.await(Duration.ofSeconds(10), () -> backend.liveAllocations() == baseline))
                .as("the blocked listener returned and the channels' memory went").isTrue();
        rt.close();
        return new Shutdown(reports, atReport, List.copyOf(handed));
    }
}
