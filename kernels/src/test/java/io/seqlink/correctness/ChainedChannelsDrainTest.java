package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Channels chained by a listener (a listener of {@code upstream} publishes each frame
 * to {@code downstream}) drain without loss when the runtime closes, whatever order they were opened in.
 */
class ChainedChannelsDrainTest {

    private static final int ROUNDS = 20;
    private static final int FRAMES = 300; // both rings of 16 slots are full long before the close: more frames add time, not cases

    @ParameterizedTest(name = "downstream opened first: {0}")
    @ValueSource(booleans = {true, false})
    void closingTheRuntimeDeliversEveryFrameThroughTheChain(boolean downstreamFirst) throws Exception {
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            SeqlinkRuntime rt = Rig.runtime(3).open();
            PublishChannel upstream;
            PublishChannel downstream;
            if (downstreamFirst) {
                downstream = rt.openChannel(Rig.channel("downstream", 1, 2).slots(16).build());
                upstream = rt.openChannel(Rig.channel("upstream", 0, 1).slots(16).build());
            } else {
                upstream = rt.openChannel(Rig.channel("upstream", 0, 1).slots(16).build());
                downstream = rt.openChannel(Rig.channel("downstream", 1, 2).slots(16).build());
            }
            AtomicLong forwardFailures = new AtomicLong();
            upstream.consumer(1).subscribe(frame -> {
                ByteBuffer p = frame.payload();
                long seq;
                while ((seq = downstream.offer(p)) == ClaimStatus.BACK_PRESSURED) {
                    Thread.onSpinWait();
                }
                if (seq < 0) {
                    forwardFailures.incrementAndGet();
                }
            });
            AtomicLong arrived = new AtomicLong();
            downstream.consumer(2).subscribe(frame -> arrived.incrementAndGet());
            rt.start();
            long published = 0;
            while (published < FRAMES) {
                if (upstream.offer(Rig.frame(published + 1, 0), 0, 24) > 0) {
                    published++;
                } else {
                    Thread.onSpinWait();
                }
            }
            rt.close();
            if (arrived.get() != FRAMES) {
                failures.add("round " + round + ": " + arrived.get() + " of " + FRAMES + " arrived downstream, "
                        + forwardFailures.get() + " forwards refused");
            }
        }
        assertThat(failures).as("rounds that lost frames, of %d", ROUNDS).isEmpty();
    }
}
