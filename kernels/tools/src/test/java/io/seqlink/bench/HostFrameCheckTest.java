package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.FramePattern;
import io.seqlink.channel.Frame;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The host rows' listener finds what it is there to find: a frame whose first or last word is not its sequence's, a
 * frame out of order, a frame of the wrong length, and (in its checksum sample) a frame damaged between its ends.
 */
class HostFrameCheckTest {

    private static final int LENGTH = 4096;

    /** A frame as a host listener gets it: a read-only little-endian view of the payload. */
    private record TestFrame(long sequence, ByteBuffer bytes) implements Frame {
        @Override
        public String channel() {
            return "test";
        }

        @Override
        public int consumerDevice() {
            return 0;
        }

        @Override
        public int length() {
            return bytes.limit();
        }

        @Override
        public ByteBuffer payload() {
            return bytes.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
        }

        @Override
        public int attempt() {
            return 1;
        }
    }

    private static TestFrame frame(long sequence, int length) {
        ByteBuffer b = ByteBuffer.allocateDirect(length).order(ByteOrder.LITTLE_ENDIAN);
        FramePattern.fill(b, 0, length, sequence);
        return new TestFrame(sequence, b);
    }

    @Test
    void intactFramesInOrderAreSeenHandledAndVerified() {
        HostFrameCheck check = new HostFrameCheck(LENGTH, 10);
        check.window(1, 10, 1);
        for (long s = 1; s <= 10; s++) {
            check.onFrame(frame(s, LENGTH));
        }

        assertThat(check.seen()).isEqualTo(10);
        assertThat(check.handled()).isEqualTo(10);
        assertThat(check.corrupt(10)).isZero();
        assertThat(check.verified()).isEqualTo(10);
    }

    @Test
    void countsAWrongEndWordAFrameOutOfOrderAndAWrongLength() {
        HostFrameCheck check = new HostFrameCheck(LENGTH, 10);
        check.window(1, 5, Long.MAX_VALUE); // no checksum sample: only the cheap check counts
        check.onFrame(frame(1, LENGTH));
        TestFrame stale = frame(2, LENGTH);
        stale.bytes().putLong(LENGTH - 8, 0); // the last word not frame 2's
        check.onFrame(stale);
        check.onFrame(frame(4, LENGTH)); // 3 skipped
        check.onFrame(frame(4, LENGTH)); // 4 again
        check.onFrame(frame(5, LENGTH - 8)); // short

        assertThat(check.corrupt(5)).as("frame 2's word, frame 3 never seen, frame 4 again, frame 5's length").isEqualTo(4);
        assertThat(check.verified()).isZero();
    }

    @Test
    void aFrameWithABadEndIsCountedOnceEvenInTheSample() {
        HostFrameCheck check = new HostFrameCheck(LENGTH, 2);
        check.window(1, 2, 1);
        check.onFrame(frame(1, LENGTH));
        TestFrame bad = frame(2, LENGTH);
        bad.bytes().putLong(0, 0);
        check.onFrame(bad);

        assertThat(check.corrupt(2)).isEqualTo(1);
        assertThat(check.verified()).isEqualTo(1);
    }

    @Test
    void theChecksumSampleFindsDamageBetweenTheEnds() {
        HostFrameCheck check = new HostFrameCheck(LENGTH, 4);
        check.window(1, 4, 3);
        for (long s = 1; s <= 4; s++) {
            TestFrame f = frame(s, LENGTH);
            if (s == 1 || s == 4) {
                f.bytes().put(LENGTH / 2, (byte) (f.bytes().get(LENGTH / 2) ^ 1));
            }
            check.onFrame(f);
        }

        // frame 1 is damaged before the sample starts (verifyFrom 3): only frame 4's damage is found
        assertThat(check.corrupt(4)).isEqualTo(1);
        assertThat(check.verified()).isEqualTo(1);
    }

    @Test
    void theLogComparesEveryRecordedFrameWithItsSequencesPattern() {
        FrameLog log = new FrameLog(64, 3);
        log.record(1, FramePattern.mix(1), FramePattern.mix(1 + 7));
        log.record(2, FramePattern.mix(2), FramePattern.mix(3 + 7)); // frame 3's last word in frame 2
        log.record(3, FramePattern.mix(3), FramePattern.mix(3 + 7));

        assertThat(log.corrupt(1, 3)).isEqualTo(1);
        assertThat(new FrameLog(4, 3).recorded()).as("a frame of 4 bytes has no whole word").isFalse();
    }
}
