package io.seqlink;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class QuickStartTest {

    @Test
    void publishesAndConsumesWithoutSpring() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                .emulated(EmulatedTopology.allNvlink(2)).open()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(256).build());
            ch.consumer(1).subscribe(frame -> received.add(StandardCharsets.UTF_8.decode(frame.payload()).toString()));
            rt.start();
            for (int i = 0; i < 100; i++) {
                byte[] bytes = ("frame " + i).getBytes(StandardCharsets.UTF_8);
                while (ch.offer(bytes, 0, bytes.length) < 0) {
                    Thread.onSpinWait();
                }
            }
            assertThat(rt.launcher().awaitDrained(java.time.Duration.ofSeconds(5))).isTrue();
            System.out.println(ch.snapshot());
        }
        assertThat(received).hasSize(100);
        assertThat(received.get(99)).isEqualTo("frame 99");
    }
}
