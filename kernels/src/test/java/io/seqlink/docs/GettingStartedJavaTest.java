package io.seqlink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import example.plain.HelloChannel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The example of docs/getting-started-java.md ({@code example.plain.HelloChannel}, which the page shows
 * verbatim: the sample's {@code DocSnippetsTests} checks that) prints what the page says it prints.
 */
class GettingStartedJavaTest {

    @Test
    void theDocumentedExamplePrintsWhatThePageSays() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        HelloChannel.run(new PrintStream(captured, true, StandardCharsets.UTF_8));
        assertThat(captured.toString(StandardCharsets.UTF_8).lines()).containsExactly("frame 1: hello 1",
                "frame 2: hello 2", "frame 3: hello 3", "frame 4: hello 4");
    }
}
