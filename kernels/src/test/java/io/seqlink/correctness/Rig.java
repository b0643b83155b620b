package io.seqlink.correctness;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.topology.VerifierSettings;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Shared set-up of the correctness tests: emulated runtimes, frames that carry their own check, waits with deadlines. */
final class Rig {

    private Rig() {
    }

    static SeqlinkRuntime.Builder runtime(int devices) {
        return runtime(EmulatedTopology.allNvlink(devices));
    }

    static SeqlinkRuntime.Builder runtime(EmulatedTopology topology) {
        return SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(topology)
                .verifier(VerifierSettings.defaults().withEnabled(false))
                .launcher(new LauncherSettings(IdleStrategyKind.BACKOFF, 32, Duration.ofMillis(20)));
    }

    static ChannelSpec.Builder channel(String name, int producer, Integer... consumers) {
        return ChannelSpec.builder(name).producer(producer).consumers(consumers).slots(64).slotBytes(64);
    }

    static EmulatedBackend emulated(SeqlinkRuntime rt) {
        return (EmulatedBackend) rt.backend();
    }

    /** Polls {@code condition} until it holds or {@code timeout} passes; true when it held. */
    static boolean await(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                return condition.getAsBoolean();
            }
            LockSupport.parkNanos(200_000);
        }
        return true;
    }

    /** A thread that pauses and resumes {@code port} (each pause releases its armed round) until {@code done}. */
    static Thread releaser(ConsumerPort port, AtomicBoolean done) {
        return new Thread(() -> {
            while (!done.get()) {
                if (port.pause()) {
                    Thread.onSpinWait();
                    port.resume();
                }
                Thread.yield();
            }
        }, "releaser");
    }

    /** A 24-byte frame that checks itself: a value, a second value, and a checksum of both. */
    static byte[] frame(long a, long b) {
        ByteBuffer buf = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        buf.putLong(a).putLong(b).putLong(check(a, b));
        return buf.array();
    }

    static void writeFrame(ByteBuffer slot, long a, long b) {
        slot.putLong(0, a).putLong(8, b).putLong(16, check(a, b));
    }

    static long check(long a, long b) {
        long h = a * 0x9E3779B97F4A7C15L ^ Long.rotateLeft(b, 29) * 0xC2B2AE3D27D4EB4FL;
        return h ^ (h >>> 31);
    }

    /** Whether a frame written by {@link #frame} arrived intact. */
    static boolean intact(ByteBuffer payload, int length) {
        return length == 24 && payload.getLong(16) == check(payload.getLong(0), payload.getLong(8));
    }
}
