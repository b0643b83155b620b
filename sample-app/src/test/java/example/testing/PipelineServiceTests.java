package example.testing;

import io.seqlink.channel.ChannelState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.sample.SampleApplication;
import io.seqlink.test.SeqlinkFaults;
import io.seqlink.test.SeqlinkTestUtils;
import io.seqlink.test.context.EmulatedSeqlink;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;
import org.springframework.test.web.servlet.client.RestTestClient;

@SpringBootTest(classes = SampleApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "sample.pipeline.source-rate=0")                  // no background frames: exact counts
@EmulatedSeqlink(devices = 3, links = {"0-1=nvlink", "0-2=pcie-peer"}) // GPU or not, three simulated GPUs
@DirtiesContext(classMode = ClassMode.AFTER_EACH_TEST_METHOD)           // a lost device is not for the next test
class PipelineServiceTests {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("frames")
    PublishChannel frames;

    @Autowired
    SeqlinkFaults faults;                                               // added by @EmulatedSeqlink

    RestTestClient http;                                                // Spring Framework 7's test client

    @BeforeEach
    void client() {
        http = RestTestClient.bindToServer().baseUrl("http://localhost:" + port).build();
    }

    @Test
    void framesPostedOverHttpReachEveryInferenceDeviceAndCheckOut() {
        http.post().uri("/api/frames").contentType(MediaType.APPLICATION_JSON).body("{\"count\": 50}")
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.published").isEqualTo(50);
        SeqlinkTestUtils.awaitDrained(frames, TIMEOUT);                 // devices 1 and 2 took all 50
        http.get().uri("/actuator/health").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.components.seqlink.status").isEqualTo("UP");
    }

    @Test
    void aLostInferenceDeviceTurnsHealthDown() {
        faults.loseDevice(2);                                           // GPU 2 falls off the bus
        http.post().uri("/api/frames").contentType(MediaType.APPLICATION_JSON).body("{\"count\": 5}").exchange();
        SeqlinkTestUtils.awaitState(frames, ChannelState.FAILED, TIMEOUT);  // fail-channel: the default policy
        http.get().uri("/actuator/health").exchange().expectStatus().isEqualTo(503)
                .expectBody().jsonPath("$.components.seqlink.components.frames.status").isEqualTo("DOWN");
    }
}
