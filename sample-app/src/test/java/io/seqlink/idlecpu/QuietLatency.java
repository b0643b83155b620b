package io.seqlink.idlecpu;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.topology.VerifierSettings;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What the launcher's idle strategy costs a frame that comes after a quiet period: one channel from device 0
 * to a host listener on device 1 (emulated), a frame published after each quiet period, and the time from
 * {@code offer} until the listener has it. Prints, per quiet period, the median, the 99th percentile and the largest
 * of {@code --samples} frames. Usage: {@code QuietLatency [--strategy=backoff] [--samples=10] [--quiet=0,50,200,1000,3000]}
 * (the quiet periods in milliseconds).
 */
public final class QuietLatency {

    private QuietLatency() {
    }

    public static void main(String[] args) {
        IdleStrategyKind strategy = IdleStrategyKind.BACKOFF;
        int samples = 10;
        long[] quiet = {0, 50, 200, 1000, 3000};
        for (String a : args) {
            if (a.startsWith("--strategy=")) {
                strategy = IdleStrategyKind.valueOf(a.substring(11).toUpperCase(Locale.ROOT).replace('-', '_'));
            } else if (a.startsWith("--samples=")) {
                samples = Integer.parseInt(a.substring(10));
            } else if (a.startsWith("--quiet=")) {
                quiet = Arrays.stream(a.substring(8).split(",")).mapToLong(Long::parseLong).toArray();
            }
        }
        AtomicLong delivered = new AtomicLong();
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(2))
                .verifier(VerifierSettings.defaults().withEnabled(false))
                .launcher(new LauncherSettings(strategy, 32, Duration.ofMillis(100))).open()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(16).slotBytes(64).build());
            ch.consumer(1).subscribe(f -> delivered.set(System.nanoTime()));
            rt.start();
            for (long quietMillis : quiet) {
                long[] micros = new long[samples];
                for (int i = 0; i < samples; i++) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(quietMillis));
                    delivered.set(0);
                    long sent = System.nanoTime();
                    if (ch.offer(new byte[8], 0, 8) <= 0) {
                        throw new IllegalStateException("offer refused");
                    }
                    while (delivered.get() == 0) {
                        Thread.onSpinWait();
                    }
                    micros[i] = (delivered.get() - sent) / 1_000;
                }
                Arrays.sort(micros);
                System.out.printf(Locale.ROOT, "%-12s quiet %5d ms: median %7d us, p99 %7d us, max %7d us (%d frames)%n",
                        strategy.name().toLowerCase(Locale.ROOT).replace('_', '-'), quietMillis, micros[samples / 2],
                        micros[Math.min(samples - 1, (int) Math.ceil(samples * 0.99) - 1)], micros[samples - 1], samples);
            }
        }
    }
}
