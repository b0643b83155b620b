package io.seqlink.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * One invalid configuration per case: each must fail startup with a failure analysis that names the
 * property and says what to set instead.
 */
class InvalidConfigurationFailureAnalysisTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                    SeqlinkListenerAutoConfiguration.class))
            .withPropertyValues("seqlink.backend=emulated", "seqlink.verify.enabled=false");

    /**
     * An invalid configuration and what its report must say.
     *
     * @param name       what is wrong, in words
     * @param properties the configuration
     * @param property   the property the report must name
     * @param fix        a fragment of the fix the report must give
     */
    record Case(String name, List<String> properties, String property, String fix) {

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> invalidConfigurations() {
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("producer device that does not exist", frames("producer=5", "consumers=1"),
                "seqlink.channels.frames.producer", "pick one of [0, 1]"));
        cases.add(new Case("consumer device that does not exist", frames("consumers=1,7"),
                "seqlink.channels.frames.consumers", "pick devices from [0, 1]"));
        cases.add(new Case("channel without consumers", frames("producer=0"),
                "seqlink.channels.frames.consumers", "list at least one consumer device"));
        cases.add(new Case("consumer listed twice", frames("consumers=1,1"),
                "seqlink.channels.frames.consumers", "list each consumer device once"));
        cases.add(new Case("zero slots", frames("consumers=1", "slots=0"),
                "seqlink.channels.frames.slots", "set slots between 2 and 1048576"));
        cases.add(new Case("negative slots", frames("consumers=1", "slots=-4"),
                "seqlink.channels.frames.slots", "set slots between"));
        cases.add(new Case("slot size zero", frames("consumers=1", "slot-size=0B"),
                "seqlink.channels.frames.slot-size", "between 1B and 1073741632B"));
        cases.add(new Case("two slots of 1 GB", frames("consumers=1", "slots=2", "slot-size=1GB"),
                "seqlink.channels.frames.slot-size", "between 1B and 1073741632B"));
        cases.add(new Case("ring of 64 x 64 MB, above 2 GiB", frames("consumers=1", "slots=64", "slot-size=64MB"),
                "seqlink.channels.frames.slot-size", "lower slot-size to at most 33554240B for 64 slots"));
        cases.add(new Case("ring of 2^20 x 1 MB", frames("consumers=1", "slots=1048576", "slot-size=1MB"),
                "seqlink.channels.frames.slot-size", "lower slots to at most 2047 for this slot size"));
        cases.add(new Case("channel name with a dot", List.of("seqlink.channels[cam.1].consumers=1"),
                "seqlink.channels[cam.1].name", "rename the channel"));
        cases.add(new Case("channel name with a slash", List.of("seqlink.channels[cam/1].consumers=1"),
                "seqlink.channels[cam/1].name", "rename the channel"));
        cases.add(new Case("channel named like the topology health child", List.of("seqlink.channels.topology.consumers=1"),
                "seqlink.channels.topology.name", "rename the channel"));
        cases.add(new Case("unknown delivery", frames("consumers=1", "delivery=sometimes"),
                "seqlink.channels.frames.delivery", "LOSSLESS"));
        cases.add(new Case("unknown backend", List.of("seqlink.backend=gpu"), "seqlink.backend", "EMULATED"));
        cases.add(new Case("unknown link class", List.of("seqlink.topology.required-link-class=fastest"),
                "seqlink.topology.required-link-class", "PEER_ATOMIC"));
        cases.add(new Case("negative backpressure timeout", frames("consumers=1", "backpressure-timeout=-1s"),
                "seqlink.channels.frames.backpressure-timeout", "set a duration of 0 or more"));
        cases.add(new Case("negative stall timeout", frames("consumers=1", "stall-timeout=-5s"),
                "seqlink.channels.frames.stall-timeout", "set a positive duration"));
        cases.add(new Case("malformed duration", frames("consumers=1", "stall-timeout=5parsecs"),
                "seqlink.channels.frames.stall-timeout", "Update your application's configuration"));
        cases.add(new Case("direct read mode with latest delivery", frames("consumers=1", "read-mode=direct",
                "delivery=latest"), "seqlink.channels.frames.read-mode", "use read-mode copy with delivery latest"));
        cases.add(new Case("same-device transport with a consumer elsewhere", frames("consumers=1",
                "transport=same-device"), "seqlink.channels.frames.transport", "put the consumers on device 0"));
        cases.add(new Case("max publish batch not below slots", frames("consumers=1", "slots=16", "max-publish-batch=16"),
                "seqlink.channels.frames.max-publish-batch", "set max-publish-batch between 1 and 15"));
        cases.add(new Case("topology device that does not exist", List.of("seqlink.topology.devices=0,5"),
                "seqlink.topology.devices", "list devices between 0 and 1, or raise seqlink.emulated.device-count to 6"));
        cases.add(new Case("channel device outside the devices in use", List.of("seqlink.emulated.device-count=3",
                "seqlink.topology.devices=0,1", "seqlink.channels.frames.consumers=2"),
                "seqlink.channels.frames.consumers", "pick devices from [0, 1], or add 2 to seqlink.topology.devices"));
        cases.add(new Case("negative verify timeout", List.of("seqlink.verify.timeout=-1s"),
                "seqlink.verify.timeout", "set a positive duration"));
        cases.add(new Case("emulated link key that names no pair", List.of("seqlink.emulated.links.0-x=nvlink"),
                "seqlink.emulated.links.0-x", "use 'a-b' for both directions"));
        cases.add(new Case("emulated link to a device that does not exist", List.of("seqlink.emulated.links.0-5=pcie-peer"),
                "seqlink.emulated.links.0-5", "raise seqlink.emulated.device-count"));
        cases.add(new Case("emulated device count zero", List.of("seqlink.emulated.device-count=0"),
                "seqlink.emulated.device-count", "set device-count between 1 and 64"));
        cases.add(new Case("launcher batch size zero", List.of("seqlink.launcher.batch-size=0"),
                "seqlink.launcher.batch-size", "set batch-size between 1 and 65536"));
        cases.add(new Case("no delivery attempt", List.of("seqlink.listener.retry.max-attempts=0"),
                "seqlink.listener.retry.max-attempts", "set max-attempts to 1 or more"));
        cases.add(new Case("max backoff below initial backoff", List.of("seqlink.listener.retry.initial-backoff=2s",
                "seqlink.listener.retry.max-backoff=1s"), "seqlink.listener.retry.max-backoff",
                "set max-backoff to at least initial-backoff"));
        cases.add(new Case("lag threshold above 1", List.of("seqlink.health.lag-threshold=1.5"),
                "seqlink.health.lag-threshold", "at most 1"));
        cases.add(new Case("negative drain timeout", List.of("seqlink.shutdown.drain-timeout=-1s"),
                "seqlink.shutdown.drain-timeout", "set a duration of 0 or more"));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidConfigurations")
    void invalidConfigurationFailsStartupWithAnAnalysisNamingThePropertyAndTheFix(Case c) {
        runner.withPropertyValues(c.properties().toArray(String[]::new)).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = FailureAnalysisTester.analyze(context.getStartupFailure());
            assertThat(analysis).as("a failure analysis of %s", context.getStartupFailure()).isNotNull();
            String report = FailureAnalysisTester.report(analysis);
            System.out.println("=== " + c.name() + "\n" + report);
            assertThat(report).contains(c.property()).contains(c.fix());
        });
    }

    private static List<String> frames(String... keys) {
        List<String> props = new ArrayList<>();
        for (String k : keys) {
            props.add("seqlink.channels.frames." + k);
        }
        return props;
    }
}
