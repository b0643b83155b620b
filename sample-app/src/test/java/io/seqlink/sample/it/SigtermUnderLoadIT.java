package io.seqlink.sample.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.sample.web.Http;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The packaged sample under HTTP load gets SIGTERM, as a container runtime sends it: the web server's
 * graceful shutdown lets the requests in flight finish before the pipeline and seqlink drain, so not one
 * request answers 5xx (a request publishing frames used to get 503 {@code stop: closed}: the drain
 * closed the channels under it), and the drain still delivers everything.
 */
class SigtermUnderLoadIT {

    private static final int CLIENTS = 4;

    @Test
    void sigtermWhileRequestsPublishAnswersNoRequestWith5xx() throws Exception {
        try (SampleProcess sample = SampleProcess.start("sigterm-under-load", SampleProcess.emulatedArgs().toArray(String[]::new))) {
            int port = sample.port();
            AtomicBoolean stopping = new AtomicBoolean();
            AtomicLong ok = new AtomicLong();
            AtomicLong servedAcrossTheStop = new AtomicLong();
            ConcurrentLinkedQueue<String> serverErrors = new ConcurrentLinkedQueue<>();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                Thread t = new Thread(() -> {
                    while (!stopping.get()) { // no new request once SIGTERM is sent: the server refuses those
                        HttpResponse<String> r;
                        try {
                            r = Http.postJson(port, "/api/frames", "{\"count\": 50}");
                        } catch (IOException | InterruptedException refused) {
                            return;
                        }
                        if (r.statusCode() >= 500) {
                            serverErrors.add(r.statusCode() + " " + r.body());
                        } else if (r.statusCode() == 200) {
                            ok.incrementAndGet();
                            if (stopping.get()) {
                                servedAcrossTheStop.incrementAndGet();
                            }
                        }
                    }
                }, "client-" + c);
                t.start();
                clients.add(t);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (ok.get() < 4 * CLIENTS && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(10_000_000);
            }
            assertThat(ok.get()).as("requests served before the stop").isGreaterThanOrEqualTo(4 * CLIENTS);
            stopping.set(true);
            int status = sample.stop(Duration.ofSeconds(90)); // SIGTERM while requests are in flight
            for (Thread t : clients) {
                t.join(30_000);
            }
            String log = sample.log();
            assertThat(serverErrors).as("5xx answers during the shutdown; log:\n%s", SampleProcess.tail(log)).isEmpty();
            assertThat(servedAcrossTheStop.get()).as("requests in flight at SIGTERM, served in full").isPositive();
            assertThat(status).as(SampleProcess.tail(log)).isIn(0, 143);
            assertThat(log).containsPattern("seqlink stopped: 3 channel\\(s\\) drained, every one of \\d+ published frame\\(s\\) delivered")
                    .contains("0 lost, 0 failed checks");
        }
    }
}
