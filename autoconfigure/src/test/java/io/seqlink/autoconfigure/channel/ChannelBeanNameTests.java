package io.seqlink.autoconfigure.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.diagnostics.FailureAnalysisTester;
import io.seqlink.channel.PublishChannel;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotationMetadata;

/**
 * A channel bean and an application bean of the same name: the channel stays injectable by its name as
 * a qualifier, whichever of the two is defined first; a clash the container cannot resolve stops startup
 * with a report naming both and the fix.
 */
class ChannelBeanNameTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class))
            .withPropertyValues("seqlink.backend=emulated", "seqlink.verify.enabled=false",
                    "seqlink.channels.snapshots.consumers=1", "seqlink.channels.snapshots.slots=8");

    /** The application's own class whose default bean name is the channel's name. */
    static class Snapshots {
    }

    /** Injects the channel by its name as a qualifier, as the README shows. */
    static class SnapshotWriter {
        final PublishChannel channel;

        SnapshotWriter(@Qualifier("snapshots") PublishChannel channel) {
            this.channel = channel;
        }
    }

    @Test
    void aChannelIsABeanNamedAfterItAndQualifiedByItsName() {
        runner.withBean(SnapshotWriter.class).run(context -> {
            assertThat(context).hasNotFailed();
            PublishChannel channel = context.getBean(SeqlinkRuntime.class).channel("snapshots").orElseThrow();
            assertThat(context.getBean("snapshots")).isSameAs(channel);
            assertThat(context.getBean(SnapshotWriter.class).channel).isSameAs(channel);
        });
    }

    @Test
    void anApplicationBeanDefinedBeforeKeepsItsNameAndTheChannelStaysInjectableByQualifier() {
        runner.withBean("snapshots", Snapshots.class).withBean(SnapshotWriter.class).run(context -> {
            assertThat(context).hasNotFailed();
            PublishChannel channel = context.getBean(SeqlinkRuntime.class).channel("snapshots").orElseThrow();
            assertThat(context.getBean("snapshots")).isInstanceOf(Snapshots.class);
            assertThat(context.getBean(SnapshotWriter.class).channel).isSameAs(channel);
            assertThat(context.getBean("seqlink.channels.snapshots")).isSameAs(channel);
        });
    }

    @Test
    void anApplicationBeanDefinedAfterTheChannelConfigurationKeepsItsNameToo() {
        runner.withUserConfiguration(ImportsSnapshotsLast.class).withBean(SnapshotWriter.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    PublishChannel channel = context.getBean(SeqlinkRuntime.class).channel("snapshots").orElseThrow();
                    assertThat(context.getBean("snapshots")).isInstanceOf(Snapshots.class);
                    assertThat(context.getBean(SnapshotWriter.class).channel).isSameAs(channel);
                });
    }

    @Test
    void aBeanRegisteredAfterTheChannelBeansUnderItsNameStopsStartupNamingTheChannelAndTheFix() {
        runner.withBean(LateSnapshotsRegistrar.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("The bean 'snapshots'")
                    .contains("seqlink channel 'snapshots' (seqlink.channels.snapshots) already has that bean name");
            assertThat(analysis.getAction()).contains("Give your bean another name")
                    .contains("@Qualifier(\"snapshots\")");
        });
    }

    /**
     * Imports {@link LaterSnapshotsConfiguration} through a deferred import, which the container processes
     * after every other configuration class, seqlink's auto-configurations included.
     */
    @Configuration(proxyBeanMethods = false)
    @Import(SnapshotsLast.class)
    static class ImportsSnapshotsLast {
    }

    static class SnapshotsLast implements DeferredImportSelector {
        @Override
        public String[] selectImports(AnnotationMetadata metadata) {
            return new String[] {LaterSnapshotsConfiguration.class.getName()};
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class LaterSnapshotsConfiguration {
        @Bean
        Snapshots snapshots() {
            return new Snapshots();
        }
    }

    /** Registers 'snapshots' after every ordered registry post-processor, seqlink's included. */
    static class LateSnapshotsRegistrar implements BeanDefinitionRegistryPostProcessor {
        @Override
        public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
            registry.registerBeanDefinition("snapshots", new RootBeanDefinition(Snapshots.class));
        }
    }
}
