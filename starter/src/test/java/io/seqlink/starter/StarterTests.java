package io.seqlink.starter;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

/**
 * The starter and an application.yml are all an application needs: with nothing but the starter's
 * dependencies, a channel bean is there and a listener gets its frames (backend auto: the GPU when a
 * driver answers, the emulated backend otherwise).
 */
@SpringBootTest(classes = StarterTests.App.class)
class StarterTests {

    @Autowired
    @Qualifier("frames")
    PublishChannel frames;

    @Autowired
    SeqlinkRuntime runtime;

    @Autowired
    App.Listener listener;

    @Test
    void channelFromApplicationYamlDeliversToTheListener() {
        byte[] hello = "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(frames.offer(hello, 0, hello.length)).isPositive();
        assertThat(runtime.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
        assertThat(listener.received).containsExactly("hello");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Listener listener() {
            return new Listener();
        }

        static class Listener {
            final List<String> received = new CopyOnWriteArrayList<>();

            @ChannelListener("frames")
            void onFrame(Frame frame) {
                received.add(java.nio.charset.StandardCharsets.UTF_8.decode(frame.payload()).toString());
            }
        }
    }
}
