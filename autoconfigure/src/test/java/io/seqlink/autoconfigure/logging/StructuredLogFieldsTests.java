package io.seqlink.autoconfigure.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.seqlink.LogKeys;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

/**
 * seqlink's WARN and ERROR lines carry the channel, the device and (for one frame) the sequence as SLF4J
 * key-value pairs, which Spring Boot's structured formats ({@code logging.structured.format.console=ecs})
 * write as fields.
 */
class StructuredLogFieldsTests {

    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Logger seqlink = (Logger) LoggerFactory.getLogger("io.seqlink");

    @BeforeEach
    void capture() {
        appender.list = new CopyOnWriteArrayList<>(); // read by the test thread while the consumer's thread logs
        appender.setContext(seqlink.getLoggerContext());
        appender.start();
        seqlink.addAppender(appender);
    }

    @AfterEach
    void release() {
        seqlink.detachAppender(appender);
    }

    @Test
    void aDeadLetteredFrameIsLoggedWithItsChannelDeviceAndSequence() {
        ILoggingEvent event = deadLetteredFrame();
        assertThat(event.getLevel()).isEqualTo(Level.ERROR);
        assertThat(keyValues(event)).containsEntry(LogKeys.CHANNEL, "frames").containsEntry(LogKeys.DEVICE, "1")
                .containsEntry(LogKeys.SEQUENCE, "1");
        assertThat(event.getFormattedMessage()).contains("frame 1").contains("dead-lettered");
        assertThat(event.getThrowableProxy()).as("the listener's exception").isNotNull();
    }

    @Test
    void bootsEcsFormatWritesTheKeysAsFields() {
        ILoggingEvent event = deadLetteredFrame();
        LoggerContext context = seqlink.getLoggerContext();
        context.putObject(Environment.class.getName(), new StandardEnvironment());
        StructuredLogEncoder encoder = new StructuredLogEncoder();
        encoder.setContext(context);
        encoder.setFormat("ecs");
        encoder.start();
        try {
            String json = new String(encoder.encode(event), StandardCharsets.UTF_8);
            assertThat(json).contains("\"seqlink\":{").contains("\"channel\":\"frames\"").contains("\"device\":1")
                    .contains("\"sequence\":1");
        } finally {
            encoder.stop();
        }
    }

    private ILoggingEvent deadLetteredFrame() {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(2))
                .drainTimeout(Duration.ZERO).open()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64).build());
            ch.consumer(1).subscribe(frame -> {
                throw new IllegalStateException("listener fails");
            });
            rt.start();
            TestChannels.publishLong(ch, 42);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                for (ILoggingEvent e : appender.list) {
                    if (e.getFormattedMessage().contains("dead-lettered")) {
                        return e;
                    }
                }
                sleep();
            }
            throw new AssertionError("no dead-letter line within 30 s; lines: " + appender.list);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static Map<String, String> keyValues(ILoggingEvent event) {
        return event.getKeyValuePairs() == null ? Map.of()
                : event.getKeyValuePairs().stream().collect(Collectors.toMap(kv -> kv.key, kv -> String.valueOf(kv.value)));
    }
}
