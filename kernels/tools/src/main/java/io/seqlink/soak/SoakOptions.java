package io.seqlink.soak;

import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology.StreamMode;
import io.seqlink.channel.Delivery;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What a soak run does. Parsed from the command line by {@link #parse(String...)}; every option has
 * a default, so {@code SoakMain} with no arguments runs a short lossless soak on the emulated backend.
 *
 * @param backend          emulated, cuda or auto
 * @param duration         how long the producer publishes (0: until {@code frames})
 * @param frames           how many frames the producer publishes (0: until {@code duration})
 * @param consumers        consumer devices (devices 1..consumers; the producer is device 0)
 * @param slots            ring slots
 * @param slotBytes        largest payload; each frame's length varies from 1 to this
 * @param delivery         lossless or latest
 * @param hostRing         lossless: the consumers named as host listeners as the channel opens, so its ring is in host
 *                         memory (the host ring's publish); false: none named, the ring in device memory (the publish
 *                         step's, a batch of stream writes on CUDA) and each consumer's stream stages its frames
 * @param stallProbability chance per frame that a listener stalls, and per chaos tick that a consumer is paused
 * @param streamMode       emulated streams: inline or threaded
 * @param maxRate          most frames per second the producer publishes (0: as fast as the channel lets it)
 * @param seed             seed of every random choice
 * @param sampleInterval   how often memory and throughput are sampled
 * @param json             where to write the JSON report, or {@code null}
 */
public record SoakOptions(BackendSelection backend, Duration duration, long frames, int consumers, int slots, int slotBytes,
        Delivery delivery, boolean hostRing, double stallProbability, StreamMode streamMode, long maxRate, long seed, @Nullable Duration sampleInterval,
        @Nullable Path json) {

    public static final String USAGE = """
            usage: SoakMain [options]
              --backend emulated|cuda|auto   backend (default emulated)
              --duration 30m|90s|PT5M|0      publish for this long (default 0: until --frames)
              --frames N                     publish N frames (default 1000000; 0: until --duration)
              --consumers N                  consumer devices 1..N, producer on device 0 (default 3)
              --slots N                      ring slots (default 64)
              --slot-bytes N                 largest frame; lengths vary 1..N (default 256)
              --delivery lossless|latest     (default lossless)
              --ring host|device             host (default): the consumers named as host listeners as the channel
                                             opens (a lossless channel then keeps its ring in host memory);
                                             device: none named, the ring in device memory
              --stall-probability P          listener stall chance per frame, pause chance per tick (default 0.0005)
              --stream-mode inline|threaded  emulated streams (default threaded)
              --max-rate N                   at most N frames/s (default 0: unlimited; latest delivery
                                             laps slow consumers less when the producer is paced)
              --seed N                       (default 1)
              --sample-interval 1s           memory/throughput sampling period (default: duration/300, 1s..60s)
              --json FILE                    write the JSON report here
            exit status: 0 when nothing was lost, duplicated or corrupted (latest: missed == gaps), else 1""";

    public SoakOptions {
        if (duration.isZero() && frames <= 0) {
            throw new IllegalArgumentException("give --frames N or --duration D (both were 0)");
        }
        if (consumers < 1 || consumers > 63) {
            throw new IllegalArgumentException("--consumers must be between 1 and 63, was " + consumers);
        }
        if (stallProbability < 0 || stallProbability > 1) {
            throw new IllegalArgumentException("--stall-probability must be between 0 and 1, was " + stallProbability);
        }
        if (maxRate < 0) {
            throw new IllegalArgumentException("--max-rate must not be negative, was " + maxRate);
        }
        if (slotBytes < 1) {
            throw new IllegalArgumentException("--slot-bytes must be at least 1, was " + slotBytes);
        }
    }

    public static SoakOptions defaults() {
        return new SoakOptions(BackendSelection.EMULATED, Duration.ZERO, 1_000_000, 3, 64, 256, Delivery.LOSSLESS, true, 0.0005,
                StreamMode.THREADED, 0, 1, null, null);
    }

    /** The sampling period: as given, else a 300th of the duration, between 1 s and 60 s. */
    public Duration effectiveSampleInterval() {
        if (sampleInterval != null) {
            return sampleInterval;
        }
        long millis = Math.max(1_000, Math.min(60_000, duration.toMillis() / 300));
        return Duration.ofMillis(millis);
    }

    public static SoakOptions parse(String... args) {
        SoakOptions o = defaults();
        BackendSelection backend = o.backend;
        Duration duration = o.duration;
        long frames = o.frames;
        boolean framesGiven = false;
        int consumers = o.consumers;
        int slots = o.slots;
        int slotBytes = o.slotBytes;
        Delivery delivery = o.delivery;
        boolean hostRing = o.hostRing;
        double stall = o.stallProbability;
        StreamMode mode = o.streamMode;
        long maxRate = o.maxRate;
        long seed = o.seed;
        Duration sample = null;
        Path json = null;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (name.equals("--help") || name.equals("-h")) {
                throw new IllegalArgumentException(USAGE);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value\n" + USAGE);
            }
            String v = args[++i];
            switch (name) {
                case "--backend" -> backend = BackendSelection.valueOf(v.toUpperCase(Locale.ROOT));
                case "--duration" -> duration = parseDuration(v);
                case "--frames" -> {
                    frames = Long.parseLong(v.replace("_", ""));
                    framesGiven = true;
                }
                case "--consumers" -> consumers = Integer.parseInt(v);
                case "--slots" -> slots = Integer.parseInt(v);
                case "--slot-bytes" -> slotBytes = Integer.parseInt(v);
                case "--delivery" -> delivery = Delivery.valueOf(v.toUpperCase(Locale.ROOT));
                case "--ring" -> {
                    if (!v.equals("host") && !v.equals("device")) {
                        throw new IllegalArgumentException("--ring takes host or device, was " + v + "\n" + USAGE);
                    }
                    hostRing = v.equals("host");
                }
                case "--stall-probability" -> stall = Double.parseDouble(v);
                case "--stream-mode" -> mode = StreamMode.valueOf(v.toUpperCase(Locale.ROOT));
                case "--max-rate" -> maxRate = Long.parseLong(v.replace("_", ""));
                case "--seed" -> seed = Long.parseLong(v);
                case "--sample-interval" -> sample = parseDuration(v);
                case "--json" -> json = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + name + "\n" + USAGE);
            }
        }
        if (!duration.isZero() && !framesGiven) {
            frames = 0; // a duration alone means: publish until it ends
        }
        return new SoakOptions(backend, duration, frames, consumers, slots, slotBytes, delivery, hostRing, stall, mode, maxRate, seed, sample, json);
    }

    /** {@code 30m}, {@code 90s}, {@code 500ms}, {@code 2h}, or ISO-8601 ({@code PT5M}). */
    static Duration parseDuration(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.startsWith("pt") || s.startsWith("p")) {
            return Duration.parse(v.toUpperCase(Locale.ROOT));
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
        }
        long n = Long.parseLong(s.substring(0, s.length() - 1));
        return switch (s.charAt(s.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            default -> throw new IllegalArgumentException("duration '" + v + "': use e.g. 90s, 30m, 2h or PT5M");
        };
    }
}
