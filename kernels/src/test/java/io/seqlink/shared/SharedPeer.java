package io.seqlink.shared;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.testing.BatchChecker;
import io.seqlink.testing.FrameChecker;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One side of a cross-process channel in a JVM of its own, for {@link TwoProcessChannelTest}:
 *
 * <pre>
 *   produce DIR CHANNEL SECRET_FILE STALL_MS SLOTS   shares the channel, prints READY; "publish N" publishes N more frames
 *   consume DIR CHANNEL SECRET_FILE                  attaches, prints ATTACHED start= epoch= seat=, checks every frame;
 *                                                    prints FAILURE and why (and what was added to it) once it failed;
 *                                                    its status has latencyCount= (frames timed from their publish)
 *   consume-batches DIR CHANNEL SECRET_FILE FAIL_EVERY  the same with a batch listener (BatchChecker) that fails every
 *                                                    FAIL_EVERY-th call once; its status adds batches= largest=
 *                                                    thrown= retryMismatches=
 *   consume-device DIR CHANNEL SECRET_FILE CAPACITY  the same with a device listener: ArmedChecksumListener's kernel
 *                                                    checksums every frame (of Frames.MAX_LENGTH bytes) on the
 *                                                    consumer's device, for sequences up to CAPACITY
 *   latency DIR CHANNEL SECRET_FILE FRAMES           attaches (device loops spinning), prints ATTACHED, then
 *                                                    LATENCY n= p50= p99= p999= max= wrong= (ns) after FRAMES frames
 *   latency-device DIR CHANNEL SECRET_FILE CAPACITY LENGTH  consume-device with frames of LENGTH bytes, checked by a grid, device loops
 *                                                    spinning (the latency bench's device-listener rows)
 * </pre>
 *
 * Both print a STATUS line every 50 ms and end on "stop" (printing CLOSED) or at the end of stdin. The system property
 * {@value #BACKEND} picks the backend: {@value #EMULATED} (the default) or {@value #CUDA}; {@value #DEVICE} the device
 * that consumes (0 by default).
 */
public final class SharedPeer {

    static final String BACKEND = "seqlink-test.backend";
    /** The device of this process that consumes (attaches with {@code AttachSpec.onDevice}); 0 by default. */
    static final String DEVICE = "seqlink-test.device";
    static final String EMULATED = "emulated";
    static final String CUDA = "cuda";

    private SharedPeer() {
    }

    /** A runtime on {@code backend}: two emulated devices joined by NVLink, or the CUDA backend. */
    static SeqlinkRuntime runtime(String backend) {
        return runtime(backend, LauncherSettings.defaults());
    }

    /** The same with {@code launcher}'s settings (the latency bench's loops spin). */
    static SeqlinkRuntime runtime(String backend, LauncherSettings launcher) {
        SeqlinkRuntime.Builder b = SeqlinkRuntime.builder().launcher(launcher);
        return (backend.equals(CUDA) ? b.backend(BackendSelection.CUDA) : b.emulated(EmulatedTopology.allNvlink(2))).open();
    }

    /** Removes {@code dir} and everything under it (a bench's or soak's share directory). */
    static void deleteTree(Path dir) throws java.io.IOException {
        try (var files = java.nio.file.Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** Launcher settings whose device loops spin without a pause, for latency measurements. */
    static LauncherSettings spinning() {
        LauncherSettings d = LauncherSettings.defaults();
        return new LauncherSettings(IdleStrategyKind.BUSY_SPIN, d.batchSize(), d.watchdogPeriod());
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        String channel = args[2];
        SharedSecret secret = SharedSecret.fromFile(Path.of(args[3]), "secret file");
        String backend = System.getProperty(BACKEND, EMULATED);
        try (SeqlinkRuntime rt = args[0].startsWith("latency") ? runtime(backend, spinning()) : runtime(backend)) {
            if (args[0].equals("latency")) {
                latency(rt, dir, channel, secret, Integer.parseInt(args[4]));
            } else if (args[0].equals("produce")) {
                produce(rt, dir, channel, secret, Duration.ofMillis(Long.parseLong(args[4])), Integer.parseInt(args[5]));
            } else if (args[0].equals("consume-device")) {
                consumeOnDevice(rt, dir, channel, secret, Integer.parseInt(args[4]), Frames.MAX_LENGTH, false);
            } else if (args[0].equals("latency-device")) {
                consumeOnDevice(rt, dir, channel, secret, Integer.parseInt(args[4]), Integer.parseInt(args[5]), true);
            } else if (args[0].equals("consume-batches")) {
                consume(rt, dir, channel, secret, Integer.parseInt(args[4]));
            } else {
                consume(rt, dir, channel, secret, -1);
            }
        }
        System.out.println("CLOSED");
        System.out.flush();
        System.exit(0);
    }

    private static void produce(SeqlinkRuntime rt, Path dir, String name, SharedSecret secret, Duration stall, int slots)
            throws Exception {
        PublishChannel ch = rt.openChannel(ChannelSpec.builder(name).producer(0).slots(slots).slotBytes(Frames.MAX_LENGTH)
                .stallTimeout(stall).share(ChannelShare.of(dir, secret)).build());
        rt.start();
        Frames.Publisher publisher = new Frames.Publisher(ch);
        Thread status = statusThread(() -> "STATUS published=" + publisher.published.get() + " state=" + ch.state());
        System.out.println("READY");
        System.out.flush();
        commands(line -> {
            if (line.startsWith("publish ")) {
                publisher.more(Long.parseLong(line.substring(8).trim()));
            }
        });
        status.interrupt();
        publisher.stop();
    }

    /** {@code failEvery} -1: a listener per frame; 0 or more: a batch listener failing every {@code failEvery}-th call. */
    private static void consume(SeqlinkRuntime rt, Path dir, String name, SharedSecret secret, int failEvery) throws Exception {
        AttachedChannel in = rt.attachChannel(AttachSpec.of(name, dir, secret).onDevice(Integer.getInteger(DEVICE, 0)));
        FrameChecker checker = new FrameChecker(Frames.MAX_LENGTH);
        checker.last = in.startsAfter();
        BatchChecker batches = failEvery < 0 ? null : new BatchChecker(checker, failEvery);
        if (batches == null) {
            in.consumer().subscribe(checker);
        } else {
            in.consumer().subscribeBatches(batches);
        }
        rt.start();
        System.out.println("ATTACHED start=" + in.startsAfter() + " epoch=" + in.epoch() + " seat=" + in.seat());
        System.out.flush();
        // the checker's counts are written by the delivering thread before it acknowledges (a release store):
        // read after an acquire of the acknowledgement, they hold at least what it covers
        java.util.concurrent.atomic.AtomicBoolean told = new java.util.concurrent.atomic.AtomicBoolean();
        Thread status = statusThread(() -> {
            long acked = in.consumer().acknowledged();
            String line = "STATUS acked=" + acked + " delivered=" + checker.delivered + " gaps=" + checker.gaps + " corrupt="
                    + checker.corrupt + " outOfOrder=" + checker.outOfOrder + " last=" + checker.last + " state=" + in.state()
                    + " latencyCount=" + in.consumer().snapshot().latencyCount() + (batches == null ? "" : batches.status());
            Throwable f = in.failure();
            if (f != null && told.compareAndSet(false, true)) { // once, before the status that shows it FAILED
                StringBuilder why = new StringBuilder("FAILURE ").append(f.getMessage());
                for (Throwable more : f.getSuppressed()) {
                    why.append(" | ").append(more.getMessage());
                }
                line = why + System.lineSeparator() + line;
            }
            return line;
        });
        commands(line -> { });
        status.interrupt();
        in.close();
    }

    /**
     * A consumer process whose listener is a device listener: {@link ArmedChecksumListener}'s kernel takes each frame (of
     * {@code length} bytes) on the consumer's device (from the region it mapped) and counts it with its checksum in a
     * host-mapped buffer. The status line counts, over the frames from the start to what the port acknowledged (which
     * the kernels' counts cover: they precede the acknowledgement on the stream, and the port's acknowledged position is
     * read after it), those delivered, lost (never taken), taken more than once or out of order, and corrupt.
     */
    private static void consumeOnDevice(SeqlinkRuntime rt, Path dir, String name, SharedSecret secret, int capacity, int length,
            boolean gridChecked) throws Exception {
        AttachedChannel in = rt.attachChannel(AttachSpec.of(name, dir, secret).onDevice(Integer.getInteger(DEVICE, 0)));
        ArmedChecksumListener listener = gridChecked ? ArmedChecksumListener.gridChecked(in.consumer().stream(), capacity, length)
                : new ArmedChecksumListener(in.consumer().stream(), capacity, length);
        in.consumer().subscribeDevice(listener);
        rt.start();
        System.out.println("ATTACHED start=" + in.startsAfter() + " epoch=" + in.epoch() + " seat=" + in.seat());
        System.out.flush();
        long[] counts = new long[5]; // scanned up to, delivered, gaps, duplicated, corrupt: the status thread's alone
        counts[0] = in.startsAfter();
        java.util.concurrent.atomic.AtomicBoolean told = new java.util.concurrent.atomic.AtomicBoolean();
        Thread status = statusThread(() -> {
            long acked = Math.min(in.consumer().acknowledged(), capacity);
            for (long s = counts[0] + 1; s <= acked; s++) {
                long d = listener.deliveries(s);
                counts[1] += d;
                counts[2] += d == 0 ? 1 : 0;
                counts[3] += d > 1 ? d - 1 : 0;
                counts[4] += d > 0 && !listener.intact(s) ? 1 : 0;
            }
            counts[0] = Math.max(counts[0], acked);
            String line = "STATUS acked=" + acked + " delivered=" + counts[1] + " gaps=" + counts[2] + " corrupt=" + counts[4]
                    + " outOfOrder=" + (counts[3] + listener.outOfOrder()) + " last=" + counts[0] + " state=" + in.state();
            Throwable f = in.failure();
            if (f != null && told.compareAndSet(false, true)) {
                line = "FAILURE " + f.getMessage() + System.lineSeparator() + line;
            }
            return line;
        });
        commands(line -> { });
        status.interrupt();
        in.close();
    }

    private static void latency(SeqlinkRuntime rt, Path dir, String name, SharedSecret secret, int frames) throws Exception {
        AttachedChannel in = rt.attachChannel(AttachSpec.of(name, dir, secret).onDevice(Integer.getInteger(DEVICE, 0)));
        LatencySink sink = new LatencySink(frames);
        in.consumer().subscribe(sink);
        rt.start();
        System.out.println("ATTACHED start=" + in.startsAfter() + " epoch=" + in.epoch() + " seat=" + in.seat());
        System.out.flush();
        while (sink.count() < frames && in.state() != io.seqlink.channel.ChannelState.FAILED) {
            Thread.sleep(5);
        }
        long[] p = sink.percentiles();
        System.out.println("LATENCY n=" + sink.count() + " p50=" + p[0] + " p99=" + p[1] + " p999=" + p[2] + " max=" + p[3]
                + " wrong=" + sink.wrong() + " window=" + sink.window() + " state=" + in.state());
        System.out.flush();
        commands(line -> { });
        in.close();
    }

    private static Thread statusThread(java.util.function.Supplier<String> line) {
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                System.out.println(line.get());
                System.out.flush();
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "status");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void commands(java.util.function.Consumer<String> handler) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("stop")) {
            handler.accept(line);
        }
    }
}
