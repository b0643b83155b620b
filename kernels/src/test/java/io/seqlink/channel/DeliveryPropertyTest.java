package io.seqlink.channel;

import static io.seqlink.testing.Seeded.forAll;
import static io.seqlink.testing.Seeded.intBetween;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.lifecycle.ChannelEvents;
import io.seqlink.channel.lifecycle.Channels;
import io.seqlink.testing.FrameChecker;
import io.seqlink.topology.Transport;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Lapping and stamp validation through the real channel, deterministically: one thread drives the
 * producer and the consumer of a channel on INLINE streams, and stalls the consumer's stream at random
 * so that a consume step queued for some frames runs only after the producer has moved on (and, under
 * latest delivery, overwritten them). Random shapes, transports and read modes; every case is seeded.
 */
class DeliveryPropertyTest {

    private static final Transport[] TRANSPORTS = {Transport.PEER_ATOMIC, Transport.PEER_COPY, Transport.HOST_STAGED};

    @Test
    void latestDeliversOnlyIntactFramesAndMissedEqualsTheGaps() {
        long[] totals = new long[2];
        forAll("latest delivery", 150, r -> {
            ConsumerSnapshot s = run(r, Delivery.LATEST);
            totals[0] += s.missed();
            totals[1] += s.laps();
        });
        // not vacuous: consumers were lapped before a round (missed) and while a round was read (laps)
        assertThat(totals[0]).isPositive();
        assertThat(totals[1]).isPositive();
    }

    @Test
    void losslessDeliversEveryFrameOnceInOrderAndIntact() {
        forAll("lossless delivery", 150, r -> run(r, Delivery.LOSSLESS));
    }

    private static ConsumerSnapshot run(SplittableRandom r, Delivery delivery) {
        int slots = intBetween(r, 2, 16);
        int maxBatch = intBetween(r, 1, slots - 1);
        int slotBytes = intBetween(r, 1, 300);
        Transport transport = TRANSPORTS[r.nextInt(TRANSPORTS.length)];
        ReadMode readMode = delivery == Delivery.LOSSLESS && r.nextBoolean() ? ReadMode.DIRECT : ReadMode.COPY;
        String shape = delivery + " " + transport + " " + readMode + " slots=" + slots + " batch=" + maxBatch + " bytes=" + slotBytes;
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(2))) {
            ChannelSpec spec = ChannelSpec.builder("prop").producer(0).consumers(1).slots(slots).slotBytes(slotBytes)
                    .delivery(delivery).readMode(readMode).transport(transport).maxPublishBatch(maxBatch).build();
            PublishChannel ch = Channels.open(backend, spec, Map.of(1, transport), ChannelEvents.NONE);
            FrameChecker checker = new FrameChecker(slotBytes);
            ConsumerPort port = ch.consumer(1).subscribe(checker);
            long published = 0;
            for (int step = 0; step < 400; step++) {
                switch (r.nextInt(4)) {
                    case 0, 1 -> published += publish(ch, r.nextInt(maxBatch) + 1, slotBytes);
                    case 2 -> port.poll(1 + r.nextInt(2 * slots));
                    default -> {
                        // a consume step queued behind a stall runs after the producer moved on
                        backend.faults().stallStreams(1, "consumer");
                        port.poll(1 + r.nextInt(2 * slots));
                        for (int i = r.nextInt(3); i > 0; i--) {
                            published += publish(ch, r.nextInt(maxBatch) + 1, slotBytes);
                        }
                        backend.faults().resumeDevice(1);
                    }
                }
            }
            for (int i = 0; i < 4 * slots + 4 && port.acknowledged() < published; i++) {
                port.poll(slots);
            }
            ConsumerSnapshot s = port.snapshot();
            assertThat(checker.corrupt).as("corrupt frames, %s", shape).isZero();
            assertThat(checker.outOfOrder).as("duplicated or reordered frames, %s", shape).isZero();
            assertThat(s.acknowledged()).as("consumer caught up, %s", shape).isEqualTo(published);
            assertThat(checker.delivered).isEqualTo(s.delivered());
            if (delivery == Delivery.LOSSLESS) {
                assertThat(checker.delivered).as("lossless delivered, %s", shape).isEqualTo(published);
                assertThat(s.missed()).isZero();
            } else {
                long trailing = published - checker.last;
                assertThat(s.missed()).as("missed equals the gaps, %s", shape).isEqualTo(checker.gaps + trailing);
                assertThat(checker.delivered + s.missed()).isEqualTo(published);
                assertThat(trailing).as("the newest frame is never missed once the consumer caught up, %s", shape).isZero();
            }
            return s;
        }
    }

    /** Claims, writes and commits up to {@code count} frames, publishes them with one publish; returns how many. */
    private static int publish(PublishChannel ch, int count, int slotBytes) {
        int n = 0;
        while (n < count) {
            long seq = ch.tryClaim();
            if (seq < 0) {
                assertThat(seq).isEqualTo(ClaimStatus.BACK_PRESSURED);
                break;
            }
            ch.commit(FrameChecker.write(ch.buffer(), seq, slotBytes));
            n++;
        }
        if (n > 0) {
            assertThat(ch.publish()).isEqualTo(n);
        }
        return n;
    }
}
