package io.seqlink.ucx.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.ReceivingBridge;
import io.seqlink.ucx.SendingBridge;
import io.seqlink.ucx.UcxEnvironment;
import io.seqlink.ucx.UcxTransport;
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
 * The bridged channel against raw JUCX put + flush, on this machine over UCX tcp on loopback (two
 * UCX workers, each on a thread of its own, in this JVM). Writes {@code target/ucx-bench/ucx-bench.json}
 * and {@code .md}; asserts only that every frame arrived (no timing assertions).
 */
class UcxBridgeBenchmarkTests {

    private static final int[] SIZES = { 16 << 10, 256 << 10, 1 << 20 };
    private static final long RUN_NANOS = 1_000_000_000L;

    /** One size's figures; throughputs in MB/s (10^6 B), latencies in µs. */
    record Row(int bytes, double rawMBps, double bridgeMBps, double ratio, double rawP50, double rawP99, double bridgeP50,
            double bridgeP99, long rawOps, long bridgeFrames) {
    }

    record Report(String date, String host, String ucx, String command, String note, List<Row> rows) {
    }

    @Test
    void bridgedChannelAgainstRawPutAndFlush() throws Exception {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX benchmark skipped: " + UcxEnvironment.probe().problem());
        List<Row> rows = new ArrayList<>();
        try (UcxTransport ucx = UcxTransport.open(Map.of("TLS", "tcp"))) {
            for (int size : SIZES) {
                RawPutFlush.Result raw = RawPutFlush.run(size, RUN_NANOS);
                long[] frames = new long[1];
                Histogram bridgeLatency = new Histogram(3_600_000_000L, 3);
                double bridgeMBps = bridge(ucx, size, frames, bridgeLatency);
                rows.add(new Row(size, raw.mbps(), bridgeMBps, bridgeMBps / raw.mbps(), raw.latency().getValueAtPercentile(50) / 1e3,
                        raw.latency().getValueAtPercentile(99) / 1e3, bridgeLatency.getValueAtPercentile(50) / 1e3,
                        bridgeLatency.getValueAtPercentile(99) / 1e3, raw.ops(), frames[0]));
                assertThat(frames[0]).isPositive();
            }
        }
        write(new Report(Instant.now().toString(), Runtime.getRuntime().availableProcessors() + " cores, "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch"), UcxEnvironment.probe().describe(),
                "mvn -B -ntp verify (kernels/ucx: UcxBridgeBenchmarkTests)",
                "one JVM, two UCX workers on their own threads, UCX_TLS=tcp over 127.0.0.1; 1 s per measurement", rows));
    }

    /** Throughput of offer -> bridge -> listener for {@code size}-byte frames, then one-at-a-time latency. */
    private static double bridge(UcxTransport ucx, int size, long[] frames, Histogram latency) throws Exception {
        ChannelSpec spec = ChannelSpec.builder("bench").producer(0).consumers(1).slots(16).slotBytes(size).build();
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
            BridgeSettings settings = BridgeSettings.defaults().withWindow(16);
            ReceivingBridge rx = ucx.openReceiver(in, new InetSocketAddress("127.0.0.1", 0), settings);
            SendingBridge tx = ucx.openSender(out, 1, rx.boundAddress(), settings);
            a.start();
            byte[] frame = new byte[size];
            long start = System.nanoTime();
            long sent = 0;
            while (System.nanoTime() - start < RUN_NANOS) {
                if (out.offer(frame, 0, size) > 0) {
                    sent++;
                } else {
                    Thread.onSpinWait();
                }
            }
            awaitCount(got, sent);
            double mbps = sent * (double) size / ((System.nanoTime() - start) / 1e9) / 1e6;
            frames[0] = sent;
            long until = System.nanoTime() + RUN_NANOS / 2;
            while (System.nanoTime() - until < 0) {
                long before = got.get();
                long t0 = System.nanoTime();
                while (out.offer(frame, 0, size) < 0) {
                    Thread.onSpinWait();
                }
                awaitCount(got, before + 1);
                latency.recordValue(Math.max(0, lastSeenNanos.get() - t0));
            }
            tx.close(Duration.ofSeconds(5));
            rx.close(Duration.ofSeconds(5));
            return mbps;
        }
    }

    private static void awaitCount(AtomicLong got, long n) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (got.get() < n) {
            assertThat(System.nanoTime() - deadline).as("frames arriving").isNegative();
            Thread.onSpinWait();
        }
    }

    private static void write(Report report) throws Exception {
        Path dir = Path.of(System.getProperty("seqlink.ucx.reports", "target/ucx-bench"));
        Files.createDirectories(dir);
        JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
        Files.writeString(dir.resolve("ucx-bench.json"), json.writeValueAsString(report));
        StringBuilder md = new StringBuilder("| frame | raw put+flush MB/s | bridged MB/s | bridged / raw | raw p50 / p99 µs | bridged p50 / p99 µs |\n"
                + "|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : report.rows()) {
            md.append(String.format("| %d KiB | %.0f | %.0f | %.2f | %.1f / %.1f | %.1f / %.1f |%n", r.bytes() >> 10, r.rawMBps(),
                    r.bridgeMBps(), r.ratio(), r.rawP50(), r.rawP99(), r.bridgeP50(), r.bridgeP99()));
        }
        md.append("\n").append(report.date()).append(", ").append(report.host()).append(", ").append(report.ucx()).append("\n");
        Files.writeString(dir.resolve("ucx-bench.md"), md);
        System.out.println(md);
    }
}
