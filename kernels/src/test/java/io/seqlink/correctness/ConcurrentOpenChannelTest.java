package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.InvalidChannelSpecException;
import io.seqlink.channel.PublishChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Two threads opening a channel of one name: exactly one gets it, the other is told
 * the name is taken before anything is allocated; nothing is orphaned, everything is freed at close.
 */
class ConcurrentOpenChannelTest {

    private static final int ROUNDS = 200;

    @Test
    void twoThreadsOpeningOneNameGetOneChannelAndNothingIsOrphaned() throws Exception {
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            SeqlinkRuntime rt = Rig.runtime(2).open();
            EmulatedBackend backend = Rig.emulated(rt);
            CyclicBarrier start = new CyclicBarrier(2);
            List<AtomicReference<Object>> results = List.of(new AtomicReference<>(), new AtomicReference<>());
            List<Thread> threads = new ArrayList<>();
            for (AtomicReference<Object> result : results) {
                Thread t = new Thread(() -> {
                    try {
                        start.await();
                        result.set(rt.openChannel(Rig.channel("same", 0, 1).build()));
                    } catch (Throwable ex) {
                        result.set(ex);
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            List<PublishChannel> opened = new ArrayList<>();
            List<Object> refused = new ArrayList<>();
            for (AtomicReference<Object> r : results) {
                if (r.get() instanceof PublishChannel ch) {
                    opened.add(ch);
                } else {
                    refused.add(r.get());
                }
            }
            rt.close();
            String problem = null;
            if (opened.size() != 1) {
                problem = opened.size() + " channels opened";
            } else if (!(refused.get(0) instanceof InvalidChannelSpecException ex)
                    || ex.violations().stream().noneMatch(v -> v.property().equals("name"))) {
                problem = "the second open failed with " + refused.get(0);
            } else if (opened.stream().anyMatch(ch -> ch.state() != ChannelState.CLOSED)) {
                problem = "a channel is still open after the runtime closed";
            } else if (backend.liveAllocations() != 0 || backend.liveStreams() != 0) {
                problem = backend.liveAllocations() + " allocations and " + backend.liveStreams() + " streams left";
            }
            if (problem != null) {
                failures.add("round " + round + ": " + problem);
            }
        }
        assertThat(failures).as("rounds that went wrong, of %d", ROUNDS).isEmpty();
    }
}
