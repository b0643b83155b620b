package io.seqlink.autoconfigure.web;

import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.channel.Frame;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ListenerContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** A service as a user writes it: Boot's auto-configuration, the seqlink starter's, and one listener. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class WebTestApplication {

    @Bean
    FrameCollector frameCollector() {
        return new FrameCollector();
    }

    /** Keeps the value of every frame it gets, in arrival order. */
    public static class FrameCollector {

        public final List<Long> values = new CopyOnWriteArrayList<>();

        @ChannelListener(channel = "frames")
        void onFrame(Frame frame, ListenerContext context) {
            values.add(TestChannels.readLong(frame.payload()));
        }
    }
}
