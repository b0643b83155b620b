package io.seqlink.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.metrics.SeqlinkMetrics;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code seqlink.metrics.latency.*} turns the consumer latency summary into a histogram that
 * Prometheus can aggregate across instances: {@code _bucket} series in the scrape when on, none when off.
 */
class LatencyHistogramTests {

    private static final Pattern BUCKET = Pattern.compile("^seqlink_consumer_latency_seconds_bucket\\{.*le=\"([^\"]+)\".*\\} (\\S+)$",
            Pattern.MULTILINE);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                    SeqlinkMetricsAutoConfiguration.class))
            .withPropertyValues(TestChannels.EMULATED_FRAMES)
            .withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));

    @Test
    void withoutConfigurationTheLatencyIsASummaryWithoutBuckets() {
        runner.run(context -> {
            String scrape = scrapeAfterFrames(context.getBean(SeqlinkRuntime.class), context.getBean(SeqlinkMetrics.class),
                    context.getBean(PrometheusMeterRegistry.class), context.getBean("frames", PublishChannel.class));
            assertThat(scrape).contains("seqlink_consumer_latency_seconds_count{").doesNotContain("seqlink_consumer_latency_seconds_bucket");
        });
    }

    @Test
    void theHistogramPublishesBucketsFromAMicrosecondToASecond() {
        runner.withPropertyValues("seqlink.metrics.latency.histogram=true").run(context -> {
            String scrape = scrapeAfterFrames(context.getBean(SeqlinkRuntime.class), context.getBean(SeqlinkMetrics.class),
                    context.getBean(PrometheusMeterRegistry.class), context.getBean("frames", PublishChannel.class));
            List<Double> bounds = bounds(scrape);
            assertThat(bounds).as("bucket boundaries in seconds").hasSizeGreaterThan(20);
            assertThat(bounds.get(0)).isLessThanOrEqualTo(2e-6);
            assertThat(bounds.get(bounds.size() - 2)).as("the last finite boundary").isBetween(0.5, 1.0);
            assertThat(bounds.get(bounds.size() - 1)).isInfinite();
            assertThat(scrape).contains("seqlink_consumer_latency_seconds_bucket{channel=\"frames\",consumer=\"1\",device=\"1\",le=\"+Inf\"} 50");
        });
    }

    @Test
    void sloBoundariesAloneGiveExactlyThoseBuckets() {
        runner.withPropertyValues("seqlink.metrics.latency.slo-boundaries=10us,100us,1ms").run(context -> {
            String scrape = scrapeAfterFrames(context.getBean(SeqlinkRuntime.class), context.getBean(SeqlinkMetrics.class),
                    context.getBean(PrometheusMeterRegistry.class), context.getBean("frames", PublishChannel.class));
            assertThat(bounds(scrape)).containsExactly(1e-5, 1e-4, 1e-3, Double.POSITIVE_INFINITY);
        });
    }

    @Test
    void aMaximumNotAboveTheMinimumFailsStartupNamingTheProperty() {
        runner.withPropertyValues("seqlink.metrics.latency.histogram=true", "seqlink.metrics.latency.minimum-expected=1s",
                "seqlink.metrics.latency.maximum-expected=1ms").run(context -> assertThat(context).hasFailed()
                        .getFailure().hasStackTraceContaining("seqlink.metrics.latency.maximum-expected"));
    }

    private static String scrapeAfterFrames(SeqlinkRuntime runtime, SeqlinkMetrics metrics, PrometheusMeterRegistry registry,
            PublishChannel frames) {
        metrics.bindTo(registry);
        frames.consumer(1).subscribe(frame -> { });
        runtime.start();
        for (int i = 1; i <= 50; i++) {
            TestChannels.publishLong(frames, i);
        }
        assertThat(runtime.launcher().awaitDrained(Duration.ofSeconds(30))).isTrue();
        return registry.scrape();
    }

    private static List<Double> bounds(String scrape) {
        Matcher m = BUCKET.matcher(scrape);
        java.util.ArrayList<Double> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1)));
        }
        return out;
    }
}
