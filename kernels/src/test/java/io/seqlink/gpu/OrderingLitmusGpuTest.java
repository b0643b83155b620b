package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs {@code seqlink-litmus} (src/test/cuda/litmus.cu): a litmus test per ordering helper of
 * seqlink_sync.cuh and per grid hand-off of seqlink_grid.cuh on the GPU, read through Jackson. Every row
 * that relies on an ordering ({@code never}) sees no forbidden outcome, and every removal control this
 * hardware is known to provoke ({@code must-fail}) sees one, which proves the tests can fail; those
 * controls are named here, so a control that stops being run or stops being asserted fails the test too.
 * Rows of kind {@code control} (removals not yet shown to fail here) and {@code practice} (outcomes the
 * PTX model allows) are printed, not asserted. Found at {@code -Dseqlink-build.litmus}, then {@code target/native/}.
 */
@Tag("gpu")
class OrderingLitmusGpuTest {

    /** The removal controls that must see the weak outcome on an H200, and the rows each proves able to fail. */
    private static final Map<String, List<String>> MUST_FAIL = Map.of(
            "control-no-acquire", List.of("mp-release-acquire", "mp-red-release", "mp-publish-tail", "mp-atom-release", "mp-fence-sc"),
            "control-no-release", List.of("mp-release-acquire", "mp-fence-sc", "mp-fence-fence"),
            "control-no-acquire-u32", List.of("mp-release-acquire-u32", "mp-fence-fence-u32"),
            "control-fence-no-reader-fence", List.of("mp-fence-fence"),
            "control-fence-gpu-no-reader-fence", List.of("mp-fence-gpu"),
            "control-cas-relaxed-reader", List.of("mp-cas-acq-rel"),
            "control-arrival-relaxed", List.of("arrival-last-block"),
            "control-mutex-none", List.of("mutex-cas-acquire"),
            "control-counted-plain", List.of("atomicity-counted-add"));

    @Test
    void everyOrderingHelperHoldsAndTheControlsShowTheTestsCanFail() throws Exception {
        Gpu.assumeDriver();
        String prop = System.getProperty("seqlink-build.litmus", "");
        Path bin = prop.isBlank() ? Path.of("target/native/seqlink-litmus") : Path.of(prop);
        assumeTrue(Files.isExecutable(bin), bin + " was not built (no nvcc or no nlohmann/json when the kernels module was built)");
        Process p = new ProcessBuilder(bin.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("seqlink-litmus finished").isTrue();
        String json = new String(out, StandardCharsets.UTF_8);
        JsonNode doc = JsonMapper.builder().build().readTree(json);

        Map<String, JsonNode> rows = new HashMap<>();
        List<String> table = new ArrayList<>();
        for (JsonNode row : doc.path("results")) {
            String name = row.path("test").asString();
            rows.put(name, row);
            long weak = row.path("weak").asLong();
            long trials = row.path("trials").asLong();
            table.add(String.format("%-36s %-9s %9d trials %8d weak %s", name, row.path("expect").asString(), trials, weak,
                    row.path("note").asString("")));
            switch (row.path("expect").asString()) {
                case "never" -> {
                    assertThat(weak).as("%s: forbidden outcomes", name).isZero();
                    assertThat(trials).as("%s: trials", name).isPositive();
                    assertThat(row.path("timeouts").asLong() * 100).as("%s: timeouts (at most 1%% of trials)", name)
                            .isLessThanOrEqualTo(trials);
                }
                case "must-fail" -> assertThat(weak).as("%s: the control must see the weak outcome", name).isPositive();
                case "control", "practice" -> {
                    // reported: a removal not (yet) shown to fail here, or an outcome the model allows
                }
                default -> throw new AssertionError(name + ": unknown kind " + row.path("expect"));
            }
        }
        System.out.println(String.join("\n", table));
        MUST_FAIL.forEach((control, proves) -> {
            assertThat(rows).as("the control %s was run", control).containsKey(control);
            assertThat(rows.get(control).path("expect").asString()).as("%s is asserted to fail", control).isEqualTo("must-fail");
            List<String> removes = new ArrayList<>();
            rows.get(control).path("removes").forEach(r -> removes.add(r.asString()));
            assertThat(removes).as("the rows %s proves able to fail", control).containsExactlyInAnyOrderElementsOf(proves);
            proves.forEach(row -> assertThat(rows).as("%s removes the ordering of %s, which ran", control, row).containsKey(row));
        });
        assertThat(doc.path("ok").asBoolean()).as("the litmus run's own verdict").isTrue();
        assertThat(p.exitValue()).as("seqlink-litmus exit status").isZero();
    }
}
