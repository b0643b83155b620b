package io.seqlink.shared;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import io.seqlink.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A soak of a channel shared with a consumer process: this JVM publishes checksummed frames ({@link Frames}) without
 * pause for {@code --duration}; a consumer process ({@link SharedPeer} {@code consume}) checks every frame, and every
 * {@code --restart-every} it is killed ({@code kill -9}) mid-stream and a new one attaches. Each consumer generation must
 * see every frame after its start once, in order, intact; the producer must go on past each kill. Prints a table, writes
 * JSON, exits 0 only when every generation is clean.
 *
 * <pre>
 *   java -cp ... io.seqlink.shared.TwoProcessSoak [--backend cuda|emulated] [--duration 5m] [--restart-every 60s]
 *        [--dir D] [--json FILE]
 * </pre>
 */
public final class TwoProcessSoak {

    private static final Duration LONG = Duration.ofSeconds(60);

    private record Generation(int epoch, long start, long delivered, long gaps, long outOfOrder, long corrupt, boolean killed) {
        boolean clean() {
            return gaps == 0 && outOfOrder == 0 && corrupt == 0 && delivered > 0;
        }
    }

    private TwoProcessSoak() {
    }

    public static void main(String[] args) throws Exception {
        String backend = "emulated";
        Duration duration = Duration.ofMinutes(5);
        Duration restartEvery = Duration.ofSeconds(60);
        Path base = Path.of(Files.isDirectory(Path.of("/dev/shm")) ? "/dev/shm" : System.getProperty("java.io.tmpdir"));
        Path json = null;
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--backend" -> backend = args[i + 1];
                case "--duration" -> duration = Duration.parse("PT" + args[i + 1].toUpperCase(Locale.ROOT));
                case "--restart-every" -> restartEvery = Duration.parse("PT" + args[i + 1].toUpperCase(Locale.ROOT));
                case "--dir" -> base = Path.of(args[i + 1]);
                case "--json" -> json = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path work = Files.createTempDirectory(base, "seqlink-soak-");
        Path secretFile = work.resolve("secret");
        Files.writeString(secretFile, "the two-process soak's secret");
        Path dir = work.resolve("share");
        List<Generation> generations = new ArrayList<>();
        long began = System.nanoTime();
        long published;
        try (SeqlinkRuntime rt = SharedPeer.runtime(backend)) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("soak").producer(0).slots(256).slotBytes(Frames.MAX_LENGTH)
                    .stallTimeout(Duration.ofSeconds(2)).share(ChannelShare.of(dir, SharedSecret.fromFile(secretFile, "secret")))
                    .build());
            rt.start();
            Frames.Publisher publisher = new Frames.Publisher(ch);
            publisher.more(Long.MAX_VALUE / 2);
            long end = began + duration.toNanos();
            int n = 0;
            while (System.nanoTime() < end) {
                n++;
                try (ChildJvm c = ChildJvm.start("soak-consumer-" + n, Path.of("target", "child-jvms"), Map.of(),
                        List.of("-D" + SharedPeer.BACKEND + "=" + backend), SharedPeer.class, "consume", dir.toString(), "soak",
                        secretFile.toString())) {
                    String attached = c.awaitLine("ATTACHED", LONG);
                    int epoch = Integer.parseInt(ChildJvm.field(attached, "epoch"));
                    long start = Long.parseLong(ChildJvm.field(attached, "start"));
                    long until = Math.min(end, System.nanoTime() + restartEvery.toNanos());
                    while (System.nanoTime() < until && c.alive()) {
                        Thread.sleep(200);
                    }
                    boolean last = System.nanoTime() >= end;
                    Map<String, String> s;
                    if (last) {
                        // a generation that attached just before the end may not have printed its first STATUS yet
                        long deadline = System.nanoTime() + LONG.toNanos();
                        while (!c.status().containsKey("delivered") && c.alive() && System.nanoTime() < deadline) {
                            Thread.sleep(20);
                        }
                        s = c.status();
                        c.command("stop");
                        c.awaitLine("CLOSED", LONG);
                    } else {
                        s = c.status();
                        c.kill(); // kill -9 mid-stream
                        long atKill = publisher.published.get();
                        long deadline = System.nanoTime() + LONG.toNanos();
                        while (publisher.published.get() <= atKill + 20L * 256 && System.nanoTime() < deadline) {
                            Thread.sleep(5); // dropped: the producer goes far past the slots the dead consumer held
                        }
                        if (publisher.published.get() <= atKill + 20L * 256) {
                            throw new AssertionError("the producer did not go on after consumer " + n + " was killed");
                        }
                    }
                    generations.add(new Generation(epoch, start, ChildJvm.number(s, "delivered"), ChildJvm.number(s, "gaps"),
                            ChildJvm.number(s, "outOfOrder"), ChildJvm.number(s, "corrupt"), !last));
                }
            }
            publisher.stop();
            published = publisher.published.get();
        }
        SharedPeer.deleteTree(work);
        double seconds = (System.nanoTime() - began) / 1e9;
        boolean clean = !generations.isEmpty() && generations.stream().allMatch(Generation::clean);
        System.out.printf(Locale.ROOT, "%ntwo-process soak, %s backend, %.0f s, %d frames published (%.0f frames/s), consumer "
                + "killed every %s%n", backend, seconds, published, published / seconds, restartEvery);
        System.out.printf(Locale.ROOT, "%6s %12s %12s %8s %12s %8s %7s%n", "epoch", "start", "delivered", "lost", "out of order",
                "corrupt", "killed");
        for (Generation g : generations) {
            System.out.printf(Locale.ROOT, "%6d %12d %12d %8d %12d %8d %7s%n", g.epoch(), g.start(), g.delivered(), g.gaps(),
                    g.outOfOrder(), g.corrupt(), g.killed() ? "kill -9" : "no");
        }
        System.out.println(clean ? "PASSED" : "FAILED");
        if (json != null) {
            StringBuilder j = new StringBuilder(String.format(Locale.ROOT, "{\"soak\":\"two-process\",\"backend\":\"%s\","
                    + "\"seconds\":%.1f,\"published\":%d,\"passed\":%b,\"generations\":[", backend, seconds, published, clean));
            for (int i = 0; i < generations.size(); i++) {
                Generation g = generations.get(i);
                j.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "{\"epoch\":%d,\"start\":%d,\"delivered\":%d,"
                        + "\"lost\":%d,\"outOfOrder\":%d,\"corrupt\":%d,\"killed\":%b}", g.epoch(), g.start(), g.delivered(),
                        g.gaps(), g.outOfOrder(), g.corrupt(), g.killed()));
            }
            Files.writeString(json, j.append("]}\n").toString());
        }
        System.exit(clean ? 0 : 1);
    }
}
