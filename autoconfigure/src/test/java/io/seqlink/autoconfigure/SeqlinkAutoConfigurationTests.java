package io.seqlink.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.endpoint.SeqlinkEndpointAutoConfiguration;
import io.seqlink.autoconfigure.health.SeqlinkHealthContributorAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.autoconfigure.metrics.SeqlinkMetricsAutoConfiguration;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.endpoint.SeqlinkEndpoint;
import io.seqlink.spring.health.SeqlinkHealthContributor;
import io.seqlink.spring.listener.ChannelListenerAnnotationBeanPostProcessor;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import io.seqlink.spring.listener.LoggingFrameErrorHandler;
import io.seqlink.spring.metrics.SeqlinkMetrics;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Every condition and back-off of the auto-configurations, on the emulated backend. */
class SeqlinkAutoConfigurationTests {

    static final AutoConfigurations ALL = AutoConfigurations.of(SeqlinkAutoConfiguration.class,
            SeqlinkChannelsAutoConfiguration.class, SeqlinkListenerAutoConfiguration.class,
            SeqlinkHealthContributorAutoConfiguration.class, SeqlinkEndpointAutoConfiguration.class,
            SeqlinkMetricsAutoConfiguration.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(ALL)
            .withPropertyValues(TestChannels.EMULATED_FRAMES);

    private final WebApplicationContextRunner webRunner = new WebApplicationContextRunner().withConfiguration(ALL)
            .withPropertyValues(TestChannels.EMULATED_FRAMES)
            .withPropertyValues("management.endpoints.web.exposure.include=seqlink");

    /**
     * Imports the auto-configurations as an application does, through Boot's import selector, which drops those whose
     * classes are missing before their conditions are even read: the way to test a classpath without a module.
     */
    private final ApplicationContextRunner importingRunner = new ApplicationContextRunner()
            .withUserConfiguration(ImportSeqlinkAutoConfigurations.class).withPropertyValues(TestChannels.EMULATED_FRAMES);

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
            SeqlinkListenerAutoConfiguration.class, SeqlinkHealthContributorAutoConfiguration.class,
            SeqlinkEndpointAutoConfiguration.class, SeqlinkMetricsAutoConfiguration.class })
    static class ImportSeqlinkAutoConfigurations {
    }

    @Test
    void importingTheAutoConfigurationsLikeAnApplicationGivesEveryBean() {
        importingRunner.withBean(SimpleMeterRegistry.class)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(SeqlinkRuntime.class).hasBean("frames")
                        .hasSingleBean(SeqlinkHealthContributor.class).hasSingleBean(SeqlinkMetrics.class)
                        .hasSingleBean(ChannelListenerEndpointRegistry.class));
    }

    @Test
    void createsTheRuntimeOnTheEmulatedBackendWithTheVerifiedTopology() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(SeqlinkRuntime.class);
            SeqlinkRuntime runtime = context.getBean(SeqlinkRuntime.class);
            assertThat(runtime.backendKind()).isEqualTo(BackendKind.EMULATED);
            assertThat(runtime.topology()).isNotNull();
            assertThat(runtime.topology().link(0, 1)).get().satisfies(v -> assertThat(v.probed()).isTrue());
        });
    }

    @Test
    void fallsBackToTheEmulatedBackendUnderAutoWhenNoDriverAnswers() {
        org.junit.jupiter.api.Assumptions.assumeTrue(noUsableDriver(), "a CUDA driver answers here");
        new ApplicationContextRunner().withConfiguration(ALL)
                .withPropertyValues("seqlink.channels.frames.consumers=1")
                .run(context -> {
                    SeqlinkRuntime runtime = context.getBean(SeqlinkRuntime.class);
                    assertThat(runtime.requestedBackend()).isEqualTo(BackendSelection.AUTO);
                    assertThat(runtime.backendKind()).isEqualTo(BackendKind.EMULATED);
                    assertThat(runtime.backendReason()).contains("no usable CUDA driver");
                });
    }

    @Test
    void registersOnePublishChannelBeanPerConfiguredChannelNamedAfterIt() {
        runner.withPropertyValues("seqlink.channels.results.producer=1", "seqlink.channels.results.consumers=0",
                "seqlink.channels.results.slots=8").run(context -> {
                    assertThat(context).getBeans(PublishChannel.class).containsOnlyKeys("frames", "results");
                    PublishChannel frames = context.getBean("frames", PublishChannel.class);
                    assertThat(frames.spec().slots()).isEqualTo(16);
                    assertThat(frames.spec().slotBytes()).isEqualTo(256);
                    assertThat(context.getBean("results", PublishChannel.class).spec().producer()).isEqualTo(1);
                    assertThat(frames).isSameAs(context.getBean(SeqlinkRuntime.class).channel("frames").orElseThrow());
                });
    }

    @Test
    void registersNoChannelBeanWhenNoChannelIsConfigured() {
        new ApplicationContextRunner().withConfiguration(ALL).withPropertyValues("seqlink.backend=emulated")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(SeqlinkRuntime.class)
                            .doesNotHaveBean(PublishChannel.class);
                });
    }

    @Test
    void channelBeanMovesAsideForAnApplicationBeanOfTheSameName() {
        runner.withUserConfiguration(UserFramesBean.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean("frames")).isEqualTo("mine");
            assertThat(context.getBean("seqlink.channels.frames", PublishChannel.class))
                    .isSameAs(context.getBean(SeqlinkRuntime.class).channel("frames").orElseThrow());
        });
    }

    @Test
    void runtimeBacksOffToAnApplicationRuntime() {
        runner.withUserConfiguration(UserRuntime.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(SeqlinkRuntime.class);
            SeqlinkRuntime runtime = context.getBean(SeqlinkRuntime.class);
            assertThat(runtime.devices()).hasSize(3);
            assertThat(context.getBean("frames", PublishChannel.class).spec().slots()).isEqualTo(32);
        });
    }

    @Test
    void appliesRuntimeBuilderCustomizersAfterTheProperties() {
        runner.withBean(SeqlinkRuntimeBuilderCustomizer.class, () -> b -> b.emulated(EmulatedTopology.allNvlink(3)))
                .run(context -> assertThat(context.getBean(SeqlinkRuntime.class).devices()).containsExactly(0, 1, 2));
    }

    @Test
    void everythingBacksOffWhenSeqlinkIsDisabled() {
        runner.withPropertyValues("seqlink.enabled=false").withBean(SimpleMeterRegistry.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(SeqlinkRuntime.class).doesNotHaveBean(PublishChannel.class)
                    .doesNotHaveBean(ChannelListenerEndpointRegistry.class)
                    .doesNotHaveBean(ChannelListenerAnnotationBeanPostProcessor.class)
                    .doesNotHaveBean(SeqlinkHealthContributor.class).doesNotHaveBean(SeqlinkEndpoint.class)
                    .doesNotHaveBean(SeqlinkMetrics.class).doesNotHaveBean(SeqlinkProperties.class);
        });
    }

    @Test
    void listenerInfrastructureIsThereWithALoggingErrorHandlerByDefault() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(ChannelListenerEndpointRegistry.class)
                    .hasSingleBean(ChannelListenerAnnotationBeanPostProcessor.class);
            assertThat(context).getBean(FrameErrorHandler.class).isInstanceOf(LoggingFrameErrorHandler.class);
            assertThat(context.getBean(ChannelListenerEndpointRegistry.class).isRunning()).isTrue();
        });
    }

    @Test
    void errorHandlerBacksOffToAnApplicationFrameErrorHandler() {
        FrameErrorHandler mine = (frame, cause) -> { };
        runner.withBean(FrameErrorHandler.class, () -> mine).run(context -> {
            assertThat(context).hasSingleBean(FrameErrorHandler.class).doesNotHaveBean(LoggingFrameErrorHandler.class);
            assertThat(context.getBean(FrameErrorHandler.class)).isSameAs(mine);
        });
    }

    @Test
    void listenerRegistryDoesNotStartTheLauncherWhenAutoStartupIsOff() {
        runner.withPropertyValues("seqlink.listener.auto-startup=false").run(context -> {
            assertThat(context.getBean(ChannelListenerEndpointRegistry.class).isRunning()).isFalse();
            assertThat(context.getBean(SeqlinkRuntime.class).launcher().running()).isFalse();
        });
    }

    @Test
    void listenerRegistryBacksOffToAnApplicationRegistry() {
        runner.withUserConfiguration(UserRegistry.class).run(context -> {
            assertThat(context).hasSingleBean(ChannelListenerEndpointRegistry.class);
            assertThat(context.getBean(ChannelListenerEndpointRegistry.class).isAutoStartup()).isFalse();
        });
    }

    @Test
    void healthContributorIsThereWithTopologyAndOneChildPerChannel() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(SeqlinkHealthContributor.class).hasBean("seqlinkHealthContributor");
            SeqlinkHealthContributor health = context.getBean(SeqlinkHealthContributor.class);
            assertThat(health.stream().map(e -> e.name())).containsExactly("topology", "frames");
            Health frames = ((HealthIndicator) health.getContributor("frames")).health();
            assertThat(frames.getStatus().getCode()).isEqualTo("UP");
            assertThat(health.getContributor("nope")).isNull();
        });
    }

    @Test
    void healthContributorBacksOffWhenTheSeqlinkHealthIndicatorIsDisabled() {
        runner.withPropertyValues("management.health.seqlink.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(SeqlinkHealthContributor.class));
    }

    @Test
    void healthContributorBacksOffWhenAllDefaultHealthIndicatorsAreDisabled() {
        runner.withPropertyValues("management.health.defaults.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(SeqlinkHealthContributor.class));
    }

    @Test
    void healthContributorBacksOffToAnApplicationBeanNamedSeqlinkHealthContributor() {
        runner.withBean("seqlinkHealthContributor", HealthIndicator.class, () -> () -> Health.up().build())
                .run(context -> assertThat(context).doesNotHaveBean(SeqlinkHealthContributor.class)
                        .hasBean("seqlinkHealthContributor"));
    }

    @Test
    void healthContributorBacksOffWithoutSpringBootHealthOnTheClasspath() {
        importingRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(SeqlinkRuntime.class)
                        .doesNotHaveBean("seqlinkHealthContributor"));
    }

    @Test
    void endpointIsThereWhenExposed() {
        webRunner.run(context -> assertThat(context).hasSingleBean(SeqlinkEndpoint.class));
    }

    @Test
    void endpointBacksOffWhenNotExposed() {
        runner.run(context -> assertThat(context).doesNotHaveBean(SeqlinkEndpoint.class));
    }

    @Test
    void endpointBacksOffWhenItsAccessIsNone() {
        webRunner.withPropertyValues("management.endpoint.seqlink.access=NONE")
                .run(context -> assertThat(context).doesNotHaveBean(SeqlinkEndpoint.class));
    }

    @Test
    void endpointBacksOffToAnApplicationEndpoint() {
        webRunner.withUserConfiguration(UserEndpoint.class).run(context -> {
            assertThat(context).hasSingleBean(SeqlinkEndpoint.class);
            assertThat(context.getBean(SeqlinkEndpoint.class)).isSameAs(UserEndpoint.INSTANCE);
        });
    }

    @Test
    void endpointBacksOffWithoutActuatorOnTheClasspath() {
        importingRunner.withPropertyValues("management.endpoints.web.exposure.include=seqlink")
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(SeqlinkRuntime.class)
                        .doesNotHaveBean("seqlinkEndpoint"));
    }

    @Test
    void metricsBinderIsThereWithAMeterRegistryAndBindsChannelMeters() {
        runner.withBean(SimpleMeterRegistry.class).run(context -> {
            assertThat(context).hasSingleBean(SeqlinkMetrics.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            context.getBean(SeqlinkMetrics.class).bindTo(registry);
            assertThat(registry.get("seqlink.consumer.lag").tag("channel", "frames").tag("consumer", "1").gauge().value())
                    .isZero();
            assertThat(registry.get("seqlink.link.atomic.latency").tag("producer", "0").tag("consumer", "1").gauge().value())
                    .isPositive();
        });
    }

    @Test
    void metricsBinderBacksOffWithoutAMeterRegistry() {
        runner.run(context -> assertThat(context).doesNotHaveBean(SeqlinkMetrics.class));
    }

    @Test
    void metricsBinderBacksOffWithoutMicrometerOnTheClasspath() {
        importingRunner.withClassLoader(new FilteredClassLoader("io.micrometer"))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(SeqlinkRuntime.class)
                        .doesNotHaveBean("seqlinkMetrics"));
    }

    @Test
    void metricsBinderBacksOffToAnApplicationBinder() {
        runner.withBean(SimpleMeterRegistry.class).withBean(SeqlinkMetrics.class, () -> new SeqlinkMetrics(null) {
            @Override
            public void bindTo(MeterRegistry registry) {
            }
        }).run(context -> assertThat(context).getBeans(MeterBinder.class).hasSize(1));
    }

    @Test
    void everythingWorksWithoutJcudaOnTheClasspath() {
        AtomicBoolean jcudaSeen = new AtomicBoolean();
        importingRunner.withClassLoader(new FilteredClassLoader("jcuda")).withPropertyValues("seqlink.backend=auto")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(SeqlinkRuntime.class).hasBean("frames");
                    assertThat(context.getBean(SeqlinkRuntime.class).backendKind()).isEqualTo(BackendKind.EMULATED);
                    try {
                        context.getClassLoader().loadClass("jcuda.driver.JCudaDriver");
                        jcudaSeen.set(true);
                    } catch (ClassNotFoundException expected) {
                        // filtered, as on a classpath without JCuda
                    }
                });
        assertThat(jcudaSeen).isFalse();
    }

    static boolean noUsableDriver() {
        io.seqlink.backend.BackendProvider p = io.seqlink.backend.Backends.cudaProvider();
        return p == null || !p.detect().usable();
    }

    @Configuration(proxyBeanMethods = false)
    static class UserFramesBean {
        @Bean
        String frames() {
            return "mine";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserRuntime {
        @Bean(destroyMethod = "close")
        SeqlinkRuntime myRuntime() {
            SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                    .emulated(EmulatedTopology.allNvlink(3)).open();
            rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1, 2).slots(32).slotBytes(64).build());
            return rt;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserRegistry {
        @Bean
        ChannelListenerEndpointRegistry myRegistry(SeqlinkRuntime runtime) {
            return new ChannelListenerEndpointRegistry(runtime, io.seqlink.channel.RetryPolicy.defaults(), (f, e) -> { },
                    java.time.Duration.ofSeconds(1), false);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserEndpoint {
        static SeqlinkEndpoint INSTANCE;

        @Bean
        SeqlinkEndpoint mySeqlinkEndpoint(SeqlinkRuntime runtime) {
            INSTANCE = new SeqlinkEndpoint(runtime);
            return INSTANCE;
        }
    }
}
