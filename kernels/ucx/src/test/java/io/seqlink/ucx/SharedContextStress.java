package io.seqlink.ucx;

import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Not a test: a stress run for UCX's context under several link threads. One {@link InProcessRig} (one UCX context),
 * and for the given time, again and again: a channel pair, a receiving and a sending bridge (two link threads, each
 * making its worker of the shared context), 100 frames across, both bridges closed (each thread destroying its worker
 * while the other's may still run). Prints the rounds done; a UCX fault ends the JVM instead (its hs_err file).
 * Usage: {@code java -cp <ucx test classpath> io.seqlink.ucx.SharedContextStress 240}
 */
public final class SharedContextStress {

    private SharedContextStress() {
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        long rounds = 0;
        try (InProcessRig rig = new InProcessRig()) {
            while (System.nanoTime() - deadline < 0) {
                rounds++;
                ChannelSpec spec = ChannelSpec.builder("s" + rounds).producer(0).consumers(1).slots(16).slotBytes(4096).build();
                PublishChannel out = rig.sending.openChannel(spec);
                PublishChannel in = rig.receiving.openChannel(spec);
                AtomicLong got = new AtomicLong();
                in.consumer(1).subscribe(f -> got.incrementAndGet());
                InProcessRig.Link link = rig.link(out, in, BridgeSettings.defaults());
                byte[] frame = new byte[4096];
                for (int i = 0; i < 100; i++) {
                    while (out.offer(frame, 0, frame.length) < 0) {
                        Thread.onSpinWait();
                    }
                }
                InProcessRig.awaitThat(() -> got.get() == 100, "100 frames across in round " + rounds);
                link.tx().close(Duration.ofSeconds(5));
                link.rx().close(Duration.ofSeconds(5));
                out.close();
                in.close();
                if (rounds % 50 == 0) {
                    System.out.println("rounds " + rounds);
                }
            }
        }
        System.out.println("done: " + rounds + " rounds without a fault in " + seconds + " s");
    }
}
