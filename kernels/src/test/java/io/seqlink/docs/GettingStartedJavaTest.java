package io.seqlink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import example.plain.HelloChannel;
import example.plain.SendOrGiveBack;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.topology.VerifierSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The examples of docs/getting-started-java.md ({@code example.plain.HelloChannel} and
 * {@code SendOrGiveBack}, which the page shows verbatim: the sample's {@code DocSnippetsTests} checks that)
 * do what the page says.
 */
class GettingStartedJavaTest {

    @Test
    void theDocumentedExamplePrintsWhatThePageSays() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        HelloChannel.run(new PrintStream(captured, true, StandardCharsets.UTF_8));
        assertThat(captured.toString(StandardCharsets.UTF_8).lines()).containsExactly("frame 1: hello 1",
                "frame 2: hello 2", "frame 3: hello 3", "frame 4: hello 4");
    }

    @Test
    void aClaimWhoseWriteThrowsIsGivenBackAndNoListenerSeesIt() {
        try (SeqlinkRuntime runtime = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                .emulated(EmulatedTopology.allNvlink(2)).verifier(VerifierSettings.defaults().withEnabled(false)).open()) {
            PublishChannel frames = runtime.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(64)
                    .slotBytes(64).build());
            List<String> got = new CopyOnWriteArrayList<>();
            frames.consumer(1).subscribe(frame -> got.add(StandardCharsets.UTF_8.decode(frame.payload()).toString()));
            runtime.start();
            assertThat(SendOrGiveBack.send(frames, slot -> put(slot, "one"))).isEqualTo(1);
            boolean threw = false;
            try {
                SendOrGiveBack.send(frames, slot -> {
                    slot.put(0, (byte) 'x');
                    throw new IllegalStateException("the encoder failed");
                });
            } catch (IllegalStateException expected) {
                threw = true;
            }
            assertThat(threw).isTrue();
            assertThat(SendOrGiveBack.send(frames, slot -> put(slot, "three"))).isEqualTo(3);
            assertThat(runtime.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
            assertThat(got).containsExactly("one", "three");
            assertThat(frames.snapshot().claimsAbandoned()).isEqualTo(1);
        }
    }

    private static int put(java.nio.ByteBuffer slot, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        slot.put(0, bytes);
        return bytes.length;
    }
}
