package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Several threads producing on one channel, through {@code offer} and through
 * claim → write → commit → publish: every accepted frame has its own sequence, arrives once and intact;
 * no caller without a claim is told {@code CLAIM_OPEN}; the channel stays open and usable.
 */
class MultiProducerTest {

    private static final int THREADS = 4;
    private static final int PER_THREAD = 5_000;

    @Test
    void offerFromSeveralThreadsDeliversEveryAcceptedFrameOnce() throws Exception {
        run(false);
    }

    @Test
    void claimCommitPublishFromSeveralThreadsDeliversEveryAcceptedFrameOnce() throws Exception {
        run(true);
    }

    private void run(boolean stepByStep) throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("shared", 0, 1).slots(64).maxPublishBatch(8).build());
            Map<Long, Long> received = new ConcurrentHashMap<>(); // sequence -> (thread << 32 | counter)
            AtomicLong corrupt = new AtomicLong();
            AtomicLong duplicates = new AtomicLong();
            ConsumerPort port = ch.consumer(1).subscribe(frame -> {
                ByteBuffer p = frame.payload();
                if (!Rig.intact(p, frame.length())) {
                    corrupt.incrementAndGet();
                } else if (received.put(frame.sequence(), p.getLong(0)) != null) {
                    duplicates.incrementAndGet();
                }
            });
            rt.start();

            Map<Long, Long> accepted = new ConcurrentHashMap<>();
            AtomicLong claimOpen = new AtomicLong();
            AtomicLong duplicateSequences = new AtomicLong();
            AtomicReference<Throwable> error = new AtomicReference<>();
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                long thread = t;
                Thread p = new Thread(() -> {
                    try {
                        start.await();
                        for (long n = 0; n < PER_THREAD; ) {
                            long id = thread << 32 | n;
                            long seq = stepByStep ? claimWriteCommitPublish(ch, id) : ch.offer(Rig.frame(id, 1), 0, 24);
                            if (seq > 0) {
                                if (accepted.put(seq, id) != null) {
                                    duplicateSequences.incrementAndGet();
                                }
                                n++;
                            } else if (seq == ClaimStatus.CLAIM_OPEN) {
                                claimOpen.incrementAndGet();
                            } else {
                                Thread.onSpinWait();
                            }
                        }
                    } catch (Throwable ex) {
                        error.compareAndSet(null, ex);
                    }
                }, "producer-" + t);
                producers.add(p);
                p.start();
            }
            for (Thread p : producers) {
                p.join(60_000);
            }
            assertThat(error.get()).as("a producer failed").isNull();
            assertThat(claimOpen.get()).as("CLAIM_OPEN told to callers without a claim").isZero();
            assertThat(duplicateSequences.get()).as("sequences handed to two producers").isZero();
            assertThat(accepted).hasSize(THREADS * PER_THREAD);
            assertThat(Rig.await(Duration.ofSeconds(30), () -> port.acknowledged() >= THREADS * PER_THREAD))
                    .as("drained: acknowledged %d", port.acknowledged()).isTrue();
            assertThat(corrupt.get()).as("corrupt frames").isZero();
            assertThat(duplicates.get()).as("duplicated frames").isZero();
            assertThat(received).as("every accepted frame arrived, as itself").isEqualTo(accepted);
            assertThat(ch.state()).isEqualTo(ChannelState.OPEN);
            assertThat(ch.offer(Rig.frame(-1, 1), 0, 24)).as("a single producer afterwards").isEqualTo(THREADS * PER_THREAD + 1);
        }
    }

    /** One frame by the step-by-step path; the sequence, or the claim status. */
    private static long claimWriteCommitPublish(PublishChannel ch, long id) {
        long seq = ch.tryClaim();
        if (seq > 0) {
            Rig.writeFrame(ch.buffer(), id, 1);
            ch.commit(24);
            ch.publish();
        }
        return seq;
    }
}
