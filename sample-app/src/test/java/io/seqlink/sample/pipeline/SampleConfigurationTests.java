package io.seqlink.sample.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.channel.Violation;
import io.seqlink.sample.SampleApplication;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.NestedExceptionUtils;

/** A sample configuration that cannot work stops startup with every problem, each naming its property and fix. */
class SampleConfigurationTests {

    @Test
    void aFrameLargerThanTheSlotAndAMissingResultsChannelAreReportedTogether() {
        List<Violation> v = startupProblems("--seqlink.channels.frames.slot-size=1KB", "--sample.pipeline.results-channel-prefix=out-",
                "--sample.pipeline.std=0");
        assertThat(v).extracting(Violation::property).containsExactlyInAnyOrder("sample.pipeline.std",
                "seqlink.channels.frames.slot-size", "seqlink.channels.out-1", "seqlink.channels.out-2");
        assertThat(v).filteredOn(x -> x.property().equals("seqlink.channels.frames.slot-size")).singleElement()
                .satisfies(x -> assertThat(x.fix()).contains("at least 4160B"));
        assertThat(v).filteredOn(x -> x.property().equals("seqlink.channels.out-2")).singleElement()
                .satisfies(x -> assertThat(x.fix()).contains("producer 2 and consumers [0]"));
    }

    @Test
    void aResultsChannelFromTheWrongDeviceIsReported() {
        List<Violation> v = startupProblems("--seqlink.channels.results-2.producer=1");
        assertThat(v).singleElement().satisfies(x -> {
            assertThat(x.property()).isEqualTo("seqlink.channels.results-2.producer");
            assertThat(x.fix()).isEqualTo("set producer to 2");
        });
    }

    static List<Violation> startupProblems(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--seqlink.backend=emulated";
        all[1] = "--sample.pipeline.source-rate=0";
        System.arraycopy(args, 0, all, 2, args.length);
        SpringApplicationBuilder app = new SpringApplicationBuilder(SampleApplication.class).web(WebApplicationType.NONE);
        Throwable[] failure = new Throwable[1];
        assertThatThrownBy(() -> app.run(all)).satisfies(ex -> failure[0] = ex);
        Throwable root = NestedExceptionUtils.getMostSpecificCause(failure[0]);
        assertThat(root).isInstanceOf(SeqlinkConfigurationException.class);
        return ((SeqlinkConfigurationException) root).violations();
    }
}
