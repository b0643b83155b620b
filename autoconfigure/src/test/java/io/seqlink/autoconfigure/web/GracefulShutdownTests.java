package io.seqlink.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A web service whose request threads publish, closed while requests are in flight: the web server's
 * graceful shutdown lets them finish before seqlink drains, so none fails on a closed channel (no 5xx),
 * and every frame they published is delivered. What was published is counted where it is accepted, in the
 * controller: a request whose frames were all published may still lose its response while the server
 * stops, so the responses the clients read undercount it.
 */
class GracefulShutdownTests {

    private static final int CLIENTS = 4;

    @Test
    void requestsInFlightWhenTheServiceClosesFinishAndTheirFramesAreDelivered() throws Exception {
        ConfigurableApplicationContext context = SpringApplication.run(PublishingService.class, "--server.port=0",
                "--seqlink.backend=emulated", "--seqlink.verify.enabled=false", "--seqlink.channels.frames.consumers=1",
                "--seqlink.channels.frames.slots=16", "--seqlink.channels.frames.slot-size=64B",
                "--seqlink.launcher.batch-size=1", "--spring.main.banner-mode=off", "--logging.level.root=WARN");
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        Collector collector = context.getBean(Collector.class);
        PublishController controller = context.getBean(PublishController.class);
        ChannelListenerEndpointRegistry registry = context.getBean(ChannelListenerEndpointRegistry.class);
        AtomicBoolean closing = new AtomicBoolean();
        AtomicLong finishedAcrossTheClose = new AtomicLong();
        AtomicLong ok = new AtomicLong();
        AtomicLong answered = new AtomicLong(); // frames of the requests whose response arrived
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            Thread t = new Thread(() -> {
                while (!closing.get()) { // no new request once the close began: the server refuses those anyway
                    boolean startedBeforeTheClose = !closing.get();
                    HttpResponse<String> r;
                    try {
                        r = Http.post(port, "/publish?count=40", null);
                    } catch (IOException | InterruptedException refused) {
                        return; // the server stopped taking requests: not a failed request
                    }
                    if (r.statusCode() >= 500) {
                        failures.add(r.statusCode() + " " + r.body());
                    } else if (r.statusCode() == 200) {
                        ok.incrementAndGet();
                        answered.addAndGet(Long.parseLong(r.body().trim()));
                        if (startedBeforeTheClose && closing.get()) {
                            finishedAcrossTheClose.incrementAndGet();
                        }
                    }
                }
            }, "test-client-" + c);
            t.start();
            clients.add(t);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ok.get() < 3 * CLIENTS && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(1_000_000);
        }
        closing.set(true);
        context.close(); // requests are in flight: each publishes 40 frames into a ring of 16 behind a slow listener
        for (Thread t : clients) {
            t.join(30_000);
        }
        assertThat(failures).as("requests that failed while the service shut down").isEmpty();
        assertThat(finishedAcrossTheClose.get()).as("requests in flight when the close began, served in full").isPositive();
        long accepted = controller.published.get();
        assertThat(accepted).as("frames published, at least those of the answered requests").isGreaterThanOrEqualTo(answered.get());
        assertThat(collector.received.get()).as("every frame the requests published").isEqualTo(accepted);
        assertThat(registry.drainReports()).allSatisfy(r -> assertThat(r.clean()).as(r.describe()).isTrue());
        DrainReport frames = registry.drainReports().stream().filter(r -> r.channel().equals("frames")).findFirst().orElseThrow();
        assertThat(frames.published()).as("the drain's published count: every frame the requests published, no other")
                .isEqualTo(accepted);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class PublishingService {

        @Bean
        Collector collector() {
            return new Collector();
        }

        @Bean
        PublishController publishController(@Qualifier("frames") PublishChannel frames) {
            return new PublishController(frames);
        }
    }

    @RestController
    static class PublishController {
        private final PublishChannel frames;
        /** Frames whose {@code publish()} returned: what the channel accepted, answered or not. */
        final AtomicLong published = new AtomicLong();

        PublishController(PublishChannel frames) {
            this.frames = frames;
        }

        /**
         * Publishes {@code count} frames, waiting for free slots (a full ring only slows the request down); a channel
         * that refuses the claim (closed, failed) is this request's failure: 500.
         */
        @PostMapping("/publish")
        long publish(@RequestParam int count) {
            for (int i = 0; i < count; i++) {
                long seq = frames.claim();
                while (seq == ClaimStatus.BACK_PRESSURED || seq == ClaimStatus.BATCH_FULL) {
                    seq = frames.claim();
                }
                if (seq < 0) {
                    throw new IllegalStateException("claim failed: " + ClaimStatus.describe(seq));
                }
                frames.buffer().putLong(0, seq);
                frames.commit(8);
                frames.publish();
                published.incrementAndGet();
            }
            return count;
        }
    }

    static class Collector {
        final AtomicLong received = new AtomicLong();

        @ChannelListener("frames")
        void onFrame(Frame frame) {
            LockSupport.parkNanos(200_000); // slower than the requests publish: they wait for slots
            TestChannels.readLong(frame.payload());
            received.incrementAndGet();
        }
    }
}
