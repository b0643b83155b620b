package io.seqlink.shared;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.security.SharedSecret;
import io.seqlink.testing.ChildJvm;
import io.seqlink.testing.FrameChecker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A producer in a Java runtime made with {@code jlink} without module {@code jdk.net} (where {@code SO_PEERCRED} lives)
 * still shares its channel: it says at share time that it cannot read an attaching process's user, and consumers attach
 * and get every frame. The producer's JVM runs with {@code --limit-modules}: the modules of the GPU host's trimmed runtime.
 */
class TrimmedRuntimeShareTest {

    /** The modules of {@code make-jre.sh}'s runtime, which has no {@code jdk.net}. */
    static final String TRIMMED = "java.base,java.logging,java.management,java.naming,java.desktop,java.sql,java.xml,"
            + "java.instrument,jdk.unsupported,jdk.management,java.compiler,java.rmi,java.net.http,java.security.jgss,"
            + "jdk.crypto.ec,jdk.jfr";
    static final Duration LONG = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    @Test
    void aProducerWithoutJdkNetSharesItsChannelAndSaysItCannotReadThePeersUser() throws Exception {
        Path dir = tmp.resolve("share");
        Path secretFile = tmp.resolve("secret");
        Files.writeString(secretFile, "a secret of the trimmed runtime's test");
        SharedSecret secret = SharedSecret.fromFile(secretFile, "secret file");
        try (ChildJvm p = ChildJvm.start("ipc-trimmed-producer", Path.of("target", "child-jvms"), Map.of(),
                List.of("--limit-modules", TRIMMED), SharedPeer.class, "produce", dir.toString(), "trimmed",
                secretFile.toString(), "2000", "64");
             SeqlinkRuntime rt = SharedPeer.runtime(SharedPeer.EMULATED)) {
            p.awaitLine("READY", LONG);
            p.awaitLineContaining("has no module jdk.net", LONG); // it says what it cannot check
            AttachedChannel in = rt.attachChannel(AttachSpec.of("trimmed", dir, secret));
            FrameChecker checker = new FrameChecker(Frames.MAX_LENGTH);
            in.consumer().subscribe(checker);
            rt.start();
            p.command("publish 1000");
            long deadline = System.nanoTime() + LONG.toNanos();
            while (in.consumer().acknowledged() < 1_000 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(in.consumer().acknowledged()).isEqualTo(1_000);
            assertThat(checker.delivered).isEqualTo(1_000);
            assertThat(checker.gaps + checker.outOfOrder + checker.corrupt).isZero();
            p.command("stop");
            p.awaitLine("CLOSED", LONG);
            in.close();
        }
    }
}
