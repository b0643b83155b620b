package io.seqlink.ucx.process;

import io.seqlink.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A {@link BridgePeer} (or another main) in a JVM of its own ({@link ChildJvm}): UCX over tcp, its output in {@code target/ucx-peers/NAME.log}. */
final class PeerProcess {

    private PeerProcess() {
    }

    static ChildJvm start(String name, String... args) throws IOException {
        return start(name, List.of(), BridgePeer.class, args);
    }

    /** A process running {@code main} with {@code jvmOptions} (system properties, say) and {@code args}. */
    static ChildJvm start(String name, List<String> jvmOptions, Class<?> main, String... args) throws IOException {
        Path dir = Path.of(System.getProperty("seqlink-build.ucx-reports", "target/ucx-bench")).getParent().resolve("ucx-peers");
        return ChildJvm.start(name, dir, Map.of("UCX_TLS", "tcp"), jvmOptions, main, args);
    }
}
