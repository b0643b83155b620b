package io.seqlink.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.Frame;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.topology.VerifierSettings;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link ChannelListenerEndpointRegistry#registerAll} binds a {@code @ChannelListener} to a consumer only
 * if it has none, atomically: a listener another thread subscribes in code while the registry binds is
 * never silently replaced; the registry fails, naming the consumer and both listeners.
 */
class ChannelListenerEndpointRegistryTests {

    private static final int ITERATIONS = 300;
    /** Endpoints per registration: the consumer raced for is the first, checked long before it is bound. */
    private static final int CHANNELS = 64;

    @Test
    void aListenerSubscribedInCodeMeanwhileIsNeverReplacedSilently() throws Exception {
        Method onFrame = Target.class.getDeclaredMethod("onFrame", Frame.class);
        int replaced = 0;
        int refused = 0;
        List<String> messages = new ArrayList<>();
        long spread = 100_000;
        for (int i = 0; i < ITERATIONS; i++) {
            try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                    .emulated(EmulatedTopology.allNvlink(2)).verifier(VerifierSettings.defaults().withEnabled(false)).open()) {
                List<ChannelListenerEndpoint> endpoints = new ArrayList<>();
                Target target = new Target();
                for (int c = 0; c < CHANNELS; c++) {
                    rt.openChannel(ChannelSpec.builder("ch" + c).producer(0).consumers(1).slots(8).slotBytes(64).build());
                    endpoints.add(new ChannelListenerEndpoint("listener" + c, "target", target, onFrame, "ch" + c, 1,
                            ChannelListenerEndpoint.Kind.FRAME, -1, 0));
                }
                ChannelListenerEndpointRegistry registry = new ChannelListenerEndpointRegistry(rt, RetryPolicy.defaults(),
                        (f, e) -> { }, Duration.ofSeconds(1), false);
                ConsumerPort raced = rt.channel("ch0").orElseThrow().consumer(1);
                AtomicLong inCode = new AtomicLong();
                CountDownLatch go = new CountDownLatch(1);
                AtomicReference<Throwable> registration = new AtomicReference<>();
                AtomicLong took = new AtomicLong();
                Thread binder = new Thread(() -> {
                    try {
                        go.await();
                        long start = System.nanoTime();
                        try {
                            registry.registerAll(endpoints);
                        } finally {
                            took.set(System.nanoTime() - start);
                        }
                    } catch (Throwable t) {
                        registration.set(t);
                    }
                });
                binder.start();
                go.countDown();
                long until = System.nanoTime() + java.util.concurrent.ThreadLocalRandom.current().nextLong(spread);
                while (System.nanoTime() - until < 0) {
                    Thread.onSpinWait(); // before the registry's check, between it and the binding, or after
                }
                raced.subscribe(new CodeListener(inCode));
                binder.join();
                spread = Math.max(1_000, 2 * took.get()); // the next try's subscribe lands anywhere in a registration's time

                Throwable failed = registration.get();
                if (failed != null) {
                    assertThat(failed).isInstanceOf(SeqlinkConfigurationException.class);
                    refused++;
                    if (failed.getMessage().contains("while the listeners were bound")) {
                        messages.add(failed.getMessage()); // the code listener came between the check and the binding
                    } else {
                        assertThat(failed.getMessage()).contains("consumer device 1 of channel 'ch0'").contains("subscribed in code");
                    }
                    continue;
                }
                // the registry bound: a code listener that came after it replaced it (as subscribe says); one that
                // is not the listener now was subscribed between the registry's check and its subscribe
                assertThat(rt.channel("ch0").orElseThrow().offer(new byte[8], 0, 8)).isEqualTo(1);
                raced.poll(1);
                if (inCode.get() == 0) {
                    replaced++;
                }
            }
        }
        System.out.printf("registerAll vs subscribe in code, %d tries: %d refused (%d while binding), %d silently replaced%n",
                ITERATIONS, refused, messages.size(), replaced);
        assertThat(replaced).as("code listeners the registry replaced silently, of %d tries", ITERATIONS).isZero();
        for (String m : messages) {
            assertThat(m).contains("consumer device 1 of channel 'ch0'").contains("CodeListener").contains("Target.onFrame");
        }
    }

    /** The {@code @ChannelListener} bean. */
    static final class Target {
        public void onFrame(Frame frame) {
        }
    }

    /** A listener subscribed in code. */
    record CodeListener(AtomicLong frames) implements io.seqlink.channel.FrameHandler {
        @Override
        public void onFrame(Frame frame) {
            frames.incrementAndGet();
        }

        @Override
        public String toString() {
            return "CodeListener";
        }
    }
}
