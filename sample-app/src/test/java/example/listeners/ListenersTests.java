package example.listeners;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.PublishChannel;
import io.seqlink.test.SeqlinkTestUtils;
import io.seqlink.test.context.EmulatedSeqlink;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/**
 * The listeners of docs/spring-boot.md (the class is shown there verbatim) receive what they say they
 * do: every consumer device of a channel without {@code device}, batches, device rounds.
 */
@SpringBootTest(classes = ListenersTests.App.class, properties = {
        "seqlink.channels.events.consumers=1,2", "seqlink.channels.events.slot-size=64B",
        "seqlink.channels.telemetry.consumers=1", "seqlink.channels.telemetry.slot-size=64B",
        "seqlink.channels.tensors.consumers=2", "seqlink.channels.tensors.slot-size=64B" })
@EmulatedSeqlink(devices = 3)
class ListenersTests {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ Listeners.class, DeadLetters.class })
    static class App {
    }

    @Autowired
    SeqlinkRuntime runtime;

    @Autowired
    Listeners listeners;

    @Test
    void eachListenerGetsWhatItsParametersSay() {
        for (String name : new String[] {"events", "telemetry", "tensors"}) {
            PublishChannel channel = runtime.channel(name).orElseThrow();
            for (long i = 1; i <= 10; i++) {
                SeqlinkTestUtils.publish(channel, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, i).array(),
                        TIMEOUT);
            }
            SeqlinkTestUtils.awaitDrained(channel, TIMEOUT);
        }
        assertThat(listeners.events).containsOnlyKeys(1, 2);
        assertThat(listeners.events.get(1)).hasValue(10);
        assertThat(listeners.events.get(2)).hasValue(10);
        assertThat(listeners.batchedFrames).hasValue(10);
        assertThat(listeners.deviceRounds.get()).isBetween(1L, 10L);
    }
}
