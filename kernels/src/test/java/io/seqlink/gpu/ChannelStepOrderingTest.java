package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The channel steps pay for exactly the orderings docs/memory-model.md argues for, read off the PTX the
 * build compiled (every {@code fence} and {@code .release} instruction becomes its own
 * {@code MEMBAR.*.SYS} and ptxas merges none): the publish two {@code fence.acq_rel.sys} and no
 * {@code fence.sc} (it had three sc fences and four release stores), the consume step one fence (latest
 * delivery) and one release store (the mirror's round), the ack one release store, and so the ack of what an armed round took. Runs without a GPU;
 * skipped when the build had no nvcc.
 */
class ChannelStepOrderingTest {

    @Test
    void eachStepHasItsOrderingBudgetAndNoMore() throws Exception {
        Path ptx = Path.of("target/native/seqlink_runtime.ptx");
        assumeTrue(Files.isReadable(ptx), "no " + ptx + ": the build ran without nvcc");
        Map<String, String> entries = entries(Files.readString(ptx));

        String publish = entries.get("seqlink_publish");
        assertThat(count(publish, "fence.acq_rel.sys")).as("publish: fences").isEqualTo(2);
        assertThat(count(publish, "fence.sc")).as("publish: sc fences").isZero();
        assertThat(count(publish, ".release.")).as("publish: release operations").isZero();
        assertThat(count(publish, "red.relaxed.sys.global.add.u64")).as("publish: the one add").isEqualTo(1);

        String consume = entries.get("seqlink_consume");
        assertThat(count(consume, "ld.acquire.sys")).as("consume: publish_seq once, writer_busy once").isEqualTo(2);
        assertThat(count(consume, "fence.acq_rel.sys")).as("consume: the lapping fence").isEqualTo(1);
        assertThat(count(consume, "fence.sc")).as("consume: sc fences").isZero();
        assertThat(count(consume, ".release.")).as("consume: the mirror's round").isEqualTo(1);
        assertThat(count(consume, "atom.acq_rel.gpu.global.cas")).as("consume: no agreement round trip before the copy "
                + "(it clips to the blocks' minimum instead)").isZero();

        String ack = entries.get("seqlink_ack");
        assertThat(count(ack, "st.release.sys")).as("ack: one release store").isEqualTo(1);
        assertThat(count(ack, "fence.")).as("ack: fences").isZero();

        String ackReady = entries.get("seqlink_ack_ready");
        assertThat(count(ackReady, "st.release.sys")).as("ack of what was taken: one release store").isEqualTo(1);
        assertThat(count(ackReady, "fence.")).as("ack of what was taken: fences").isZero();
        assertThat(count(ackReady, "ld.acquire")).as("ack of what was taken: the descriptor in stream order, no acquire").isZero();
    }

    /** The body of each {@code .entry} by kernel name. */
    private static Map<String, String> entries(String ptx) {
        Map<String, String> bodies = new LinkedHashMap<>();
        String[] parts = ptx.split("\\.entry ");
        for (int i = 1; i < parts.length; i++) {
            String name = parts[i].substring(0, parts[i].indexOf('(')).trim();
            bodies.put(name, parts[i]);
        }
        assertThat(bodies).containsKeys("seqlink_publish", "seqlink_consume", "seqlink_ack", "seqlink_ack_ready");
        return bodies;
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
            n++;
        }
        return n;
    }
}
