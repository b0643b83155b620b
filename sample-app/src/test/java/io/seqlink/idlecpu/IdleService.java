package io.seqlink.idlecpu;

import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.channel.Frame;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ChannelListenerEndpoint;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A seqlink service with no traffic, for measuring what idling costs (sample-app/idle-cpu.sh reads its CPU
 * time from /proc): {@code --channels=N} channels on an emulated machine of 8 devices, channel i produced on
 * device i mod 8 and consumed by the 7 others, each consumer with a host listener, and not one frame
 * published. Prints {@code IDLE READY} once the launcher runs, then idles until it is killed. Any
 * {@code seqlink.*} property may be given ({@code --seqlink.launcher.idle-strategy=busy-spin}); the sample's own
 * {@code application.yml} is not read.
 */
public final class IdleService {

    private IdleService() {
    }

    public static void main(String[] args) throws InterruptedException {
        int channels = 1;
        List<String> rest = new ArrayList<>();
        for (String a : args) {
            if (a.startsWith("--channels=")) {
                channels = Integer.parseInt(a.substring("--channels=".length()));
            } else {
                rest.add(a);
            }
        }
        List<String> all = new ArrayList<>(List.of("--spring.config.name=idle-service", "--seqlink.backend=emulated", "--seqlink.emulated.device-count=8",
                "--seqlink.verify.enabled=false", "--spring.main.banner-mode=off", "--logging.level.root=WARN"));
        for (int i = 0; i < channels; i++) {
            int producer = i % 8;
            List<String> consumers = new ArrayList<>();
            for (int d = 0; d < 8; d++) {
                if (d != producer) {
                    consumers.add(String.valueOf(d));
                }
            }
            String name = "--seqlink.channels.c" + i + ".";
            all.add(name + "producer=" + producer);
            all.add(name + "consumers=" + String.join(",", consumers));
            all.add(name + "slots=16");
            all.add(name + "slot-size=64B");
        }
        all.addAll(rest);
        SpringApplication app = new SpringApplication(IdleConfiguration.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        ConfigurableApplicationContext context = app.run(all.toArray(String[]::new));
        System.out.println("IDLE READY " + channels + " channel(s), "
                + context.getBean(ChannelListenerEndpointRegistry.class).runtime().launcher().ports().size() + " consumer(s), idle strategy "
                + context.getBean(ChannelListenerEndpointRegistry.class).runtime().launcher().settings().idleStrategy());
        Thread.currentThread().join(); // the launcher's threads are daemons: idle until killed
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
            SeqlinkListenerAutoConfiguration.class })
    static class IdleConfiguration {

        @Bean
        Counter counter() {
            return new Counter();
        }

        /** One listener bound to every consumer of every channel, as the sample binds its collector. */
        @Bean
        SmartInitializingSingleton listenEverywhere(ChannelListenerEndpointRegistry registry, Counter counter) {
            return () -> {
                Method onFrame;
                try {
                    onFrame = Counter.class.getMethod("onFrame", Frame.class);
                } catch (NoSuchMethodException ex) {
                    throw new IllegalStateException(ex);
                }
                List<ChannelListenerEndpoint> endpoints = new ArrayList<>();
                registry.runtime().channels().forEach(ch -> endpoints.add(new ChannelListenerEndpoint("counter." + ch.name(),
                        "counter", counter, onFrame, ch.name(), ChannelListener.ALL_DEVICES, ChannelListenerEndpoint.Kind.FRAME,
                        -1, 0)));
                registry.registerAll(endpoints);
            };
        }
    }

    /** Counts frames; none come. */
    public static final class Counter {
        final AtomicLong frames = new AtomicLong();

        public void onFrame(Frame frame) {
            frames.incrementAndGet();
        }
    }
}
