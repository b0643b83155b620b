package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The device-side headers a user's kernel includes are on the runtime's class path under
 * {@code io/seqlink/cuda/include/} (with or without nvcc), form a closed set (every quoted include
 * resolves inside it), and define no kernels (a header must not add code to a user's fat binary).
 */
class DeviceHeadersShippedTest {

    private static final String ROOT = "io/seqlink/cuda/include/";
    private static final Pattern INCLUDE = Pattern.compile("#include \"([^\"]+)\"");

    @Test
    void seqlinkDeviceHeaderAndEverythingItIncludesAreShipped() throws IOException {
        Set<String> seen = new TreeSet<>();
        Deque<String> todo = new ArrayDeque<>();
        todo.add("seqlink_device.cuh");
        todo.add("seqlink_pattern.cuh");
        while (!todo.isEmpty()) {
            String header = todo.pop();
            if (!seen.add(header)) {
                continue;
            }
            String text = read(header);
            assertThat(text).as("%s defines no kernel", header).doesNotContain("__global__");
            Matcher m = INCLUDE.matcher(text);
            while (m.find()) {
                todo.add(m.group(1));
            }
        }
        assertThat(seen).contains("seqlink_device.cuh", "seqlink_sync.cuh", "seqlink_args.cuh", "seqlink_layout.cuh",
                "seqlink_grid.cuh", "seqlink_pattern.cuh");
    }

    private String read(String header) throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(ROOT + header)) {
            assertThat(in).as("classpath resource %s%s", ROOT, header).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
