package io.seqlink.bench;

/**
 * How fast two host threads can hand a word back and forth by spinning: the floor under every
 * cross-thread step of the CPU reference (and under the launcher's poll on a GPU host). About 0.1 to
 * 0.3 µs on bare metal; virtual machines can be ten times worse, which the report must show.
 */
final class HostCalibration {

    private static volatile long ping;
    private static volatile long pong;

    private HostCalibration() {
    }

    /** Median-free mean round trip in nanoseconds over {@code rounds} hand-offs (after a warm-up). */
    static double pingPongNanos(int rounds) {
        ping = 0;
        pong = 0;
        int total = rounds + rounds / 4;
        Thread partner = new Thread(() -> {
            for (long i = 1; i <= total; i++) {
                while (ping < i) {
                    Thread.onSpinWait();
                }
                pong = i;
            }
        }, "bench-calibration");
        partner.setDaemon(true);
        partner.start();
        long t0 = 0;
        for (long i = 1; i <= total; i++) {
            if (i == total - rounds + 1) {
                t0 = System.nanoTime();
            }
            ping = i;
            long deadline = 0;
            int n = 0;
            while (pong < i) {
                if ((++n & 0xFFFF) == 0) {
                    long now = System.nanoTime();
                    if (deadline == 0) {
                        deadline = now + 5_000_000_000L;
                    } else if (now > deadline) {
                        return Double.NaN; // no second core to spin on
                    }
                }
                Thread.onSpinWait();
            }
        }
        double ns = (System.nanoTime() - t0) / (double) rounds;
        ChannelThroughputBench.join(partner);
        return ns;
    }
}
