package io.seqlink.ucx.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.ReceivingBridge;
import io.seqlink.ucx.SendingBridge;
import io.seqlink.ucx.UcxEnvironment;
import io.seqlink.ucx.UcxTransport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bridged channel against raw JUCX on this machine, over UCX tcp on loopback (in this JVM: raw,
 * two workers on threads of their own; bridged, two emulated runtimes and both bridges). Every
 * throughput has the same {@value #WINDOW} frames in flight: raw active messages ({@value #WINDOW}
 * sends outstanding, the primitive the bridge carries frames on: the fair baseline), raw put + flush
 * pipelined ({@value #WINDOW}/2 puts per flush, the next batch put while the last flush is in flight:
 * the put-based discipline the target names) and the bridge (window {@value #WINDOW}). Latency
 * one frame at a time: raw put + flush (one put, one flush) and the bridge (offer on the sender to the
 * receiving listener). Writes {@code ucx-bench.json} and {@code .md} under
 * {@code seqlink-build.ucx-reports}; asserts only that every frame arrived (no timing assertions).
 */
class UcxBridgeBenchmarkTests {

    static final int WINDOW = 16;
    private static final int[] SIZES = { 16 << 10, 256 << 10, 1 << 20 };
    private static final long RUN_NANOS = 1_000_000_000L;
    private static final long WARM_UP_NANOS = 300_000_000L;

    /**
     * One size's figures; throughputs in MB/s (10^6 B), latencies in µs.
     *
     * @param ratio   bridged / raw put + flush pipelined (the target: at least 0.8)
     * @param amRatio bridged / raw active messages with the same window (the like-for-like comparison)
     */
    record Row(int bytes, double rawPutFlushMBps, double rawAmMBps, double bridgeMBps, double ratio, double amRatio,
            double rawSerialMBps, double rawSerialP50, double rawSerialP99, double bridgeP50, double bridgeP99,
            long bridgeFrames) {
    }

    record Report(String date, String host, String loadBefore, String loadAfter, String ucx, String command, String note,
            int window, List<Row> rows) {
    }

    @Test
    void bridgedChannelAgainstRawPutFlushAndRawActiveMessages() throws Exception {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX benchmark skipped: " + UcxEnvironment.probe().problem());
        String loadBefore = load();
        List<Row> rows = new ArrayList<>();
        try (UcxTransport ucx = UcxTransport.open(Map.of("TLS", "tcp"))) {
            // warm-up, not recorded: JIT, UCX's lazy set-up, the first registrations
            RawBaselines.putFlush(SIZES[0], WINDOW / 2, 2, WARM_UP_NANOS);
            RawBaselines.activeMessages(SIZES[0], WINDOW, WARM_UP_NANOS);
            bridge(ucx, SIZES[0], new long[1], new Histogram(3_600_000_000L, 3), WARM_UP_NANOS);
            for (int size : SIZES) {
                RawBaselines.Result pipelined = RawBaselines.putFlush(size, WINDOW / 2, 2, RUN_NANOS);
                RawBaselines.Result serial = RawBaselines.putFlush(size, 1, 1, RUN_NANOS);
                RawBaselines.Result am = RawBaselines.activeMessages(size, WINDOW, RUN_NANOS);
                long[] frames = new long[1];
                Histogram bridgeLatency = new Histogram(3_600_000_000L, 3);
                double bridgeMBps = bridge(ucx, size, frames, bridgeLatency, RUN_NANOS);
                rows.add(new Row(size, pipelined.mbps(), am.mbps(), bridgeMBps, bridgeMBps / pipelined.mbps(), bridgeMBps / am.mbps(),
                        serial.mbps(), micros(serial.latency(), 50), micros(serial.latency(), 99), micros(bridgeLatency, 50),
                        micros(bridgeLatency, 99), frames[0]));
                assertThat(frames[0]).isPositive();
            }
        }
        write(new Report(Instant.now().toString(), host(), loadBefore, load(), UcxEnvironment.probe().describe(),
                "mvn -B -ntp verify (kernels/ucx: UcxBridgeBenchmarkTests)",
                "one JVM; UCX_TLS=tcp over 127.0.0.1; 0.3 s warm-up, then 1 s per measurement (0.5 s for the bridge's latency); window " + WINDOW + " frames", WINDOW, rows));
    }

    /** Throughput of offer -> bridge -> listener for {@code size}-byte frames, then one-at-a-time latency. */
    private static double bridge(UcxTransport ucx, int size, long[] frames, Histogram latency, long runNanos) throws Exception {
        ChannelSpec spec = ChannelSpec.builder("bench").producer(0).consumers(1).slots(WINDOW).slotBytes(size).build();
        try (SeqlinkRuntime a = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
                SeqlinkRuntime b = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open()) {
            PublishChannel out = a.openChannel(spec);
            PublishChannel in = b.openChannel(spec);
            AtomicLong got = new AtomicLong();
            AtomicLong lastSeenNanos = new AtomicLong();
            in.consumer(1).subscribe(f -> {
                lastSeenNanos.set(System.nanoTime());
                got.incrementAndGet();
            });
            b.start();
            // authenticated, as a deployment is: the handshake costs per connection, never per frame
            BridgeSettings settings = BridgeSettings.defaults().withWindow(WINDOW)
                    .withSecret(SharedSecret.of("benchmark-secret-0123456789abcdef", "UcxBridgeBenchmarkTests"));
            ReceivingBridge rx = ucx.openReceiver(in, new InetSocketAddress("127.0.0.1", 0), settings);
            SendingBridge tx = ucx.openSender(out, 1, rx.boundAddress(), settings);
            a.start();
            byte[] frame = new byte[size];
            long start = System.nanoTime();
            long sent = 0;
            while (System.nanoTime() - start < runNanos) {
                if (out.offer(frame, 0, size) > 0) {
                    sent++;
                } else {
                    Thread.yield();
                }
            }
            awaitCount(got, sent);
            double mbps = sent * (double) size / ((System.nanoTime() - start) / 1e9) / 1e6;
            frames[0] = sent;
            long until = System.nanoTime() + runNanos / 2;
            while (System.nanoTime() - until < 0) {
                long before = got.get();
                long t0 = System.nanoTime();
                while (out.offer(frame, 0, size) < 0) {
                    Thread.yield();
                }
                awaitCount(got, before + 1);
                latency.recordValue(Math.max(0, lastSeenNanos.get() - t0));
            }
            tx.close(Duration.ofSeconds(5));
            rx.close(Duration.ofSeconds(5));
            return mbps;
        }
    }

    /** Waits yielding (not spinning: on a small machine a spinning waiter starves the pipeline it measures). */
    private static void awaitCount(AtomicLong got, long n) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (got.get() < n) {
            assertThat(System.nanoTime() - deadline).as("frames arriving").isNegative();
            Thread.yield();
        }
    }

    private static double micros(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1e3;
    }

    private static String host() {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            name = "unknown host";
        }
        return name + ", " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", Java " + Runtime.version();
    }

    /** The load average (1, 5, 15 min) now, from /proc/loadavg, or "unknown". */
    private static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static void write(Report report) throws Exception {
        Path dir = Path.of(System.getProperty("seqlink-build.ucx-reports", "target/ucx-bench"));
        Files.createDirectories(dir);
        JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
        Files.writeString(dir.resolve("ucx-bench.json"), json.writeValueAsString(report));
        StringBuilder md = new StringBuilder("| frame | raw put+flush (" + report.window() / 2 + " per flush, 2 flushes in flight) MB/s | raw AM ("
                + report.window() + " in flight) MB/s | bridged MB/s | bridged / raw put+flush | bridged / raw AM "
                + "| raw put+flush serial p50 / p99 µs | bridged p50 / p99 µs |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : report.rows()) {
            md.append(String.format("| %d KiB | %.0f | %.0f | %.0f | %.2f | %.2f | %.1f / %.1f | %.1f / %.1f |%n", r.bytes() >> 10,
                    r.rawPutFlushMBps(), r.rawAmMBps(), r.bridgeMBps(), r.ratio(), r.amRatio(), r.rawSerialP50(), r.rawSerialP99(),
                    r.bridgeP50(), r.bridgeP99()));
        }
        md.append("\n").append(report.date()).append(", ").append(report.host()).append(", load ").append(report.loadBefore())
                .append(" -> ").append(report.loadAfter()).append(", ").append(report.ucx()).append("\n");
        Files.writeString(dir.resolve("ucx-bench.md"), md);
        System.out.println(md);
    }
}
