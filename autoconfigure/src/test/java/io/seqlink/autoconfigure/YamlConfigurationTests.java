package io.seqlink.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.health.SeqlinkHealthStatusEnvironmentPostProcessor;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.backend.emulated.LinkMode;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.PublishChannel;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.topology.LinkClass;
import io.seqlink.topology.Transport;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.mock.env.MockEnvironment;

/** application.yml is all a user writes: every part of it reaches the runtime. */
class YamlConfigurationTests {

    @Test
    void applicationYamlConfiguresBackendTopologyVerifierEmulationChannelsLauncherAndRetry() {
        SpringApplication app = new SpringApplication(YamlApp.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext context = app.run("--spring.config.location=classpath:seqlink-yaml-test.yml",
                "--spring.main.banner-mode=off")) {
            SeqlinkProperties props = context.getBean(SeqlinkProperties.class);
            assertThat(props.topology().requiredLinkClass()).isEqualTo(LinkClass.PEER_COPY);
            assertThat(props.verify().maxAtomicLatency()).isEqualTo(Duration.ofNanos(5_000));
            assertThat(props.emulated().links()).containsExactlyInAnyOrderEntriesOf(
                    Map.of("0-1", LinkMode.NVLINK, "0-2", LinkMode.PCIE_PEER, "2-to-1", LinkMode.HOST_ONLY));
            assertThat(props.launcher().idleStrategy()).isEqualTo(IdleStrategyKind.YIELD);
            assertThat(props.listener().retry().maxAttempts()).isEqualTo(5);

            EmulatedTopology t = SeqlinkRuntimeFactory.emulatedTopology(props.emulated());
            assertThat(t.mode(0, 2)).isEqualTo(LinkMode.PCIE_PEER);
            assertThat(t.mode(2, 0)).isEqualTo(LinkMode.PCIE_PEER);
            assertThat(t.mode(2, 1)).isEqualTo(LinkMode.HOST_ONLY);
            assertThat(t.mode(1, 2)).isEqualTo(LinkMode.NVLINK);
            assertThat(t.latencyNanos(0, 1)).isEqualTo(1_000);
            assertThat(t.streamMode()).isEqualTo(EmulatedTopology.StreamMode.THREADED);

            SeqlinkRuntime rt = context.getBean(SeqlinkRuntime.class);
            assertThat(rt.devices()).containsExactly(0, 1, 2);
            assertThat(rt.launcher().settings().batchSize()).isEqualTo(8);
            PublishChannel frames = context.getBean("frames", PublishChannel.class);
            assertThat(frames.spec().slotBytes()).isEqualTo(4096);
            assertThat(frames.spec().stallTimeout()).isEqualTo(Duration.ofSeconds(2));
            assertThat(frames.spec().armedRounds()).as("armed-rounds defaults to true").isTrue();
            assertThat(frames.consumer(1).transport()).isEqualTo(Transport.PEER_ATOMIC);
            assertThat(frames.consumer(2).transport()).isEqualTo(Transport.PEER_COPY);
            PublishChannel results = context.getBean("results", PublishChannel.class);
            assertThat(results.spec().delivery()).isEqualTo(Delivery.LATEST);
            assertThat(results.spec().maxPublishBatch()).isEqualTo(4);
            assertThat(results.spec().armedRounds()).as("armed-rounds: false").isFalse();
            assertThat(rt.degradedLinks()).isEmpty();
        }
    }

    @Test
    void healthStatusOrderGetsDegradedUnlessTheApplicationSetsOne() {
        SeqlinkHealthStatusEnvironmentPostProcessor epp = new SeqlinkHealthStatusEnvironmentPostProcessor();
        StandardEnvironment plain = new StandardEnvironment();
        epp.postProcessEnvironment(plain, new SpringApplication());
        assertThat(plain.getProperty("management.endpoint.health.status.order")).isEqualTo("down,out-of-service,degraded,up,unknown");

        MockEnvironment own = new MockEnvironment().withProperty("management.endpoint.health.status.order", "down,up");
        epp.postProcessEnvironment(own, new SpringApplication());
        assertThat(own.getProperty("management.endpoint.health.status.order")).isEqualTo("down,up");

        MockEnvironment disabled = new MockEnvironment().withProperty("seqlink.enabled", "false");
        epp.postProcessEnvironment(disabled, new SpringApplication());
        assertThat(disabled.containsProperty("management.endpoint.health.status.order")).isFalse();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
            SeqlinkListenerAutoConfiguration.class })
    static class YamlApp {
    }
}
