package io.seqlink.shared;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.PatternKernels;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.gpu.TestKernels;
import io.seqlink.security.SharedSecret;
import io.seqlink.testing.ChildJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One-way latency of a frame to a host listener's call, for a consumer in the producer's process and for one in
 * another process attached to the shared channel, on the same backend and device in one run. Each frame is sent alone
 * ({@code --gap-us} apart, so no frame queues behind another) and carries {@code System.nanoTime()} taken as its
 * producer begins; the listener ({@link LatencySink}) takes the difference. Both processes' device loops spin. Prints a
 * table and writes JSON.
 *
 * <p>{@code --fill device} (the default) times what the hand-written hand-off ({@code seqlink-xproc-baseline}) times: a
 * kernel on the producer stream fills the frame (every byte but the first and last 16, which the host writes: the start
 * time and the sequence), then commit and publish; the clock starts before the claim. {@code --fill host} writes only
 * the two words from the host and times from the publish: the channel's hand-off alone. With {@code --gap-us 0} the
 * frames go back to back and the rows' GB/s (the samples' bytes over the time from the first one's start to the last
 * one's call) is the path's throughput; with a gap it is only the pacing. {@code --listener device} times a device
 * listener instead ({@link DeviceListenerCycles}: to the acknowledgement the producer sees; {@code --fill} does not
 * apply). {@code --consumer-device D} consumes on device D, in the producer's process and in the other one (the
 * producer is on device 0): on a host with two GPUs, {@code --consumer-device 1} times the cross-GPU cycle in one
 * process against two processes, one per GPU.
 *
 * <pre>
 *   java -cp ... io.seqlink.shared.CrossProcessLatencyBench [--backend cuda|emulated] [--frames N] [--gap-us G]
 *        [--sizes 64,16384] [--fill device|host] [--listener host|device] [--consumer-device D] [--dir D] [--json FILE]
 * </pre>
 */
public final class CrossProcessLatencyBench {

    /** One path at one size: latency percentiles, and the samples' window (their rate when sent back to back). */
    record Row(String path, int bytes, long[] p, int n, long wrong, long windowNanos) {
        double gbPerS() {
            return windowNanos <= 0 ? 0 : (double) n * bytes / windowNanos;
        }
    }

    private CrossProcessLatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        String backend = "emulated";
        int frames = 20_000;
        long gapNanos = 100_000;
        List<Integer> sizes = List.of(64, 16_384);
        Path dir = Path.of(Files.isDirectory(Path.of("/dev/shm")) ? "/dev/shm" : System.getProperty("java.io.tmpdir"));
        Path json = null;
        boolean deviceFill = true;
        boolean deviceListener = false;
        int consumerDevice = 0;
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--backend" -> backend = args[i + 1];
                case "--frames" -> frames = Integer.parseInt(args[i + 1]);
                case "--gap-us" -> gapNanos = Long.parseLong(args[i + 1]) * 1_000;
                case "--sizes" -> sizes = java.util.Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf).toList();
                case "--dir" -> dir = Path.of(args[i + 1]);
                case "--json" -> json = Path.of(args[i + 1]);
                case "--fill" -> deviceFill = switch (args[i + 1]) {
                    case "device" -> true;
                    case "host" -> false;
                    default -> throw new IllegalArgumentException("--fill takes device or host, not " + args[i + 1]);
                };
                case "--listener" -> deviceListener = switch (args[i + 1]) {
                    case "device" -> true;
                    case "host" -> false;
                    default -> throw new IllegalArgumentException("--listener takes host or device, not " + args[i + 1]);
                };
                case "--consumer-device" -> consumerDevice = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path share = Files.createTempDirectory(dir, "seqlink-latency-");
        Path secretFile = share.resolve("secret");
        Files.writeString(secretFile, "the latency bench's secret");
        SharedSecret secret = SharedSecret.fromFile(secretFile, "secret file");
        Path channels = share.resolve("channels"); // the export makes it, owner-only
        List<Row> rows = new ArrayList<>();
        try (SeqlinkRuntime rt = SharedPeer.runtime(backend, SharedPeer.spinning())) {
            for (int bytes : sizes) {
                if (deviceListener) {
                    rows.add(DeviceListenerCycles.inProcess(rt, consumerDevice, bytes, frames, gapNanos));
                    rows.add(DeviceListenerCycles.crossProcess(rt, backend, consumerDevice, channels, secretFile, secret, bytes, frames,
                            gapNanos));
                } else {
                    rows.add(inProcess(rt, consumerDevice, bytes, frames, gapNanos, deviceFill));
                    rows.add(crossProcess(rt, backend, consumerDevice, channels, secretFile, secret, bytes, frames, gapNanos,
                            deviceFill));
                }
            }
        }
        SharedPeer.deleteTree(share);
        String fill = deviceFill ? "device" : "host";
        String listener = deviceListener ? "device" : "host";
        print(backend, fill, listener, frames, gapNanos, rows);
        if (json != null) {
            Files.writeString(json, json(backend, fill, listener, frames, gapNanos, rows));
        }
        System.exit(0);
    }

    private static Row inProcess(SeqlinkRuntime rt, int consumer, int bytes, int frames, long gapNanos, boolean deviceFill)
            throws Exception {
        PublishChannel ch = rt.openChannel(ChannelSpec.builder("latency-in-" + bytes).producer(0).consumers(consumer)
                .hostListeners(consumer).slots(64).slotBytes(bytes).build());
        LatencySink sink = new LatencySink(frames);
        ch.consumer(consumer).subscribe(sink);
        rt.start();
        publish(ch, bytes, LatencySink.WARMUP + frames, gapNanos, deviceFill);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (sink.count() < frames && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Row row = new Row("in-process", bytes, sink.percentiles(), sink.count(), sink.wrong(), sink.window());
        ch.close();
        return row;
    }

    private static Row crossProcess(SeqlinkRuntime rt, String backend, int consumer, Path dir, Path secretFile, SharedSecret secret,
            int bytes, int frames, long gapNanos, boolean deviceFill) throws Exception {
        String name = "latency-x-" + bytes;
        PublishChannel ch = openShared(rt, name, bytes, dir, secret);
        try (ChildJvm c = attachedPeer("latency-consumer-" + bytes, backend, consumer, "latency", dir.toString(), name,
                secretFile.toString(), Integer.toString(frames))) {
            publish(ch, bytes, LatencySink.WARMUP + frames, gapNanos, deviceFill);
            String line = c.awaitLine("LATENCY", Duration.ofSeconds(120));
            c.command("stop");
            long[] p = {number(line, "p50"), number(line, "p99"), number(line, "p999"), number(line, "max")};
            ch.close();
            return new Row("cross-process", bytes, p, (int) number(line, "n"), number(line, "wrong"), number(line, "window"));
        }
    }

    /** A channel of {@code bytes}-byte slots on device 0, shared at {@code dir} with {@code secret}; the runtime started. */
    static PublishChannel openShared(SeqlinkRuntime rt, String name, int bytes, Path dir, SharedSecret secret) {
        PublishChannel ch = rt.openChannel(ChannelSpec.builder(name).producer(0).slots(64).slotBytes(bytes)
                .share(ChannelShare.of(dir, secret)).build());
        rt.start();
        return ch;
    }

    /**
     * A {@link SharedPeer} process in {@code mode} with {@code args}, on {@code backend}, consuming on device
     * {@code consumer}, once it printed ATTACHED (its log under target/child-jvms/{@code log}.log).
     */
    static ChildJvm attachedPeer(String log, String backend, int consumer, String mode, String... args) throws IOException {
        String[] all = new String[args.length + 1];
        all[0] = mode;
        System.arraycopy(args, 0, all, 1, args.length);
        ChildJvm c = ChildJvm.start(log, Path.of("target", "child-jvms"), Map.of(),
                List.of("-D" + SharedPeer.BACKEND + "=" + backend, "-D" + SharedPeer.DEVICE + "=" + consumer), SharedPeer.class, all);
        try {
            c.awaitLine("ATTACHED", Duration.ofSeconds(60));
            return c;
        } catch (RuntimeException ex) {
            c.close();
            throw ex;
        }
    }

    /** The number after {@code key=} in a child's status line. */
    static long number(String line, String key) {
        return Long.parseLong(ChildJvm.field(line, key));
    }

    /**
     * Publishes {@code count} frames one at a time, {@code gapNanos} apart, each stamped with its start time: before the
     * claim when a kernel fills it, else at its publish. A channel whose consumers are all host listeners (these are) keeps
     * its ring in host memory the device maps, so the kernel writes the frame's middle in place while the host writes its
     * two end words, and {@code commitDevice} ends it.
     */
    private static void publish(PublishChannel ch, int bytes, int count, long gapNanos, boolean deviceFill) {
        PatternKernels fill = deviceFill ? PatternKernels.on(ch.producerStream(), TestKernels.MODULE) : null;
        long next = System.nanoTime();
        for (int i = 0; i < count; i++) {
            spinUntil(next);
            long start = System.nanoTime();
            long seq = claim(ch);
            ByteBuffer b = ch.buffer();
            b.putLong(bytes - 8, seq);
            if (fill != null) {
                fill.fill(ch.ring(), ch.payloadOffset(seq) + 16, bytes - 32, seq);
                b.putLong(0, start);
                ch.commitDevice(bytes);
            } else {
                b.putLong(0, System.nanoTime());
                ch.commit(bytes);
            }
            ch.publish();
            next = System.nanoTime() + gapNanos;
        }
    }

    /** Spins until {@code System.nanoTime()} reaches {@code time} (the next frame's turn). */
    static void spinUntil(long time) {
        while (System.nanoTime() < time) {
            Thread.onSpinWait();
        }
    }

    /** The next frame's sequence; a claim that fails within 10 s ends the run. */
    static long claim(PublishChannel ch) {
        long seq = ch.claim(10, TimeUnit.SECONDS);
        if (seq <= 0) {
            throw new IllegalStateException("claim returned " + seq + " on " + ch.name() + " (" + ch.state() + ")");
        }
        return seq;
    }

    private static void print(String backend, String fill, String listener, int frames, long gapNanos, List<Row> rows) {
        String what = listener.equals("device") ? "claim + fill kernel + publish -> device listener's kernel -> acknowledgement seen"
                : (fill.equals("device") ? "claim + fill kernel + publish" : "publish") + " -> host listener call";
        System.out.printf(Locale.ROOT, "%nframe %s, %s backend, %d frames each, %d us apart (us)%n", what, backend, frames,
                gapNanos / 1000);
        System.out.printf(Locale.ROOT, "%-14s %9s %9s %9s %9s %9s %7s %9s%n", "path", "bytes", "p50", "p99", "p99.9", "max",
                "wrong", "GB/s");
        for (Row r : rows) {
            System.out.printf(Locale.ROOT, "%-14s %9d %9.2f %9.2f %9.2f %9.2f %7d %9.3f%n", r.path(), r.bytes(), r.p()[0] / 1e3,
                    r.p()[1] / 1e3, r.p()[2] / 1e3, r.p()[3] / 1e3, r.wrong(), r.gbPerS());
        }
    }

    private static String json(String backend, String fill, String listener, int frames, long gapNanos, List<Row> rows) {
        StringBuilder s = new StringBuilder("{\"bench\":\"cross-process-latency\",\"backend\":\"" + backend + "\",\"fill\":\""
                + fill + "\",\"listener\":\"" + listener + "\",\"frames\":"
                + frames + ",\"gap_us\":" + gapNanos / 1000 + ",\"rows\":[");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            s.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT,
                    "{\"path\":\"%s\",\"bytes\":%d,\"n\":%d,\"p50_us\":%.3f,\"p99_us\":%.3f,\"p999_us\":%.3f,\"max_us\":%.3f,"
                            + "\"wrong\":%d,\"window_us\":%.3f,\"gb_per_s\":%.4f}", r.path(), r.bytes(), r.n(), r.p()[0] / 1e3,
                    r.p()[1] / 1e3, r.p()[2] / 1e3, r.p()[3] / 1e3, r.wrong(), r.windowNanos() / 1e3, r.gbPerS()));
        }
        return s.append("]}\n").toString();
    }
}
