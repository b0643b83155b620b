package io.seqlink.backend.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The CUDA benchmarks' command lines: known names with values, {@code --short} anywhere, errors that name the fix. */
class BenchArgsTest {

    @Test
    void readsValuesListsAndTheQuickFlag() {
        BenchArgs a = new BenchArgs(new String[] {"--short", "--sizes", "64, 1024", "--warmup", "7"}, "X's javadoc", "--sizes",
                "--warmup", "--frames");
        assertThat(a.quick()).isTrue();
        assertThat(a.numbers("--sizes", new long[] {1})).containsExactly(64, 1024);
        assertThat(a.number("--warmup", 1)).isEqualTo(7);
        assertThat(a.number("--frames", a.quick() ? 2000 : 20000)).as("a default").isEqualTo(2000);
        assertThat(a.text("--mode", "all")).isEqualTo("all");
    }

    @Test
    void refusesWhatItDoesNotKnowNamingTheUsage() {
        assertThatThrownBy(() -> new BenchArgs(new String[] {"--franes", "3"}, "X's javadoc", "--frames"))
                .hasMessage("unknown option '--franes'; see X's javadoc");
        assertThatThrownBy(() -> new BenchArgs(new String[] {"--frames"}, "X's javadoc", "--frames"))
                .hasMessage("--frames needs a value; see X's javadoc");
        assertThatThrownBy(() -> new BenchArgs(new String[] {"--frames", "many"}, "X's javadoc", "--frames").number("--frames", 1))
                .hasMessage("--frames needs a number, got 'many'");
    }
}
