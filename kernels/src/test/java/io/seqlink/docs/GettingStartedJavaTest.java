package io.seqlink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The example of docs/getting-started-java.md, verbatim between the markers below, and a check that
 * the document still shows exactly this code.
 */
class GettingStartedJavaTest {

    @Test
    void theDocumentedExampleRuns() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
        // --- example start
        try (SeqlinkRuntime runtime = SeqlinkRuntime.builder()
                .backend(BackendSelection.EMULATED)              // or AUTO: CUDA when a GPU is there
                .emulated(EmulatedTopology.allNvlink(2))
                .open()) {
            PublishChannel frames = runtime.openChannel(ChannelSpec.builder("frames")
                    .producer(0).consumers(1).slots(64).slotBytes(1024).build());
            frames.consumer(1).subscribe(frame ->
                    out.println("frame " + frame.sequence() + ": " + StandardCharsets.UTF_8.decode(frame.payload())));
            runtime.start();                                     // the launcher polls the consumers
            for (int i = 1; i <= 3; i++) {
                byte[] bytes = ("hello " + i).getBytes(StandardCharsets.UTF_8);
                frames.offer(bytes, 0, bytes.length);            // claim, copy, commit, publish
            }
            runtime.launcher().awaitDrained(Duration.ofSeconds(5));
        }
        // --- example end
        assertThat(captured.toString(StandardCharsets.UTF_8).lines())
                .containsExactly("frame 1: hello 1", "frame 2: hello 2", "frame 3: hello 3");
    }

    @Test
    void theDocumentShowsThisExample() throws Exception {
        String test = Files.readString(Path.of("src/test/java/io/seqlink/docs/GettingStartedJavaTest.java"));
        String example = between(test, "// --- example start\n", "        // --- example end");
        String doc = Files.readString(Path.of("../docs/getting-started-java.md"));
        String shown = between(doc, "```java\n", "```");
        assertThat(normalize(shown)).isEqualTo(normalize(example.replace("out.println", "System.out.println")));
    }

    private static String between(String text, String start, String end) {
        int from = text.indexOf(start);
        int to = text.indexOf(end, from + start.length());
        assertThat(from).as("marker %s", start.trim()).isNotNegative();
        assertThat(to).as("marker %s", end.trim()).isPositive();
        return text.substring(from + start.length(), to);
    }

    /** The same code, whatever its indentation. */
    private static String normalize(String code) {
        return code.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce("", (a, b) -> a + b + "\n");
    }
}
