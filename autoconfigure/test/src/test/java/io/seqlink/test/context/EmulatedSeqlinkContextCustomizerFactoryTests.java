package io.seqlink.test.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code @EmulatedSeqlink} stands for, in properties; a mistake in it names the form to use. */
class EmulatedSeqlinkContextCustomizerFactoryTests {

    @EmulatedSeqlink(devices = 4, links = {"0-1=nvlink", " 0-to-2 = pcie-peer"}, latency = "1-3=2us", verify = true)
    static class Full {
    }

    @EmulatedSeqlink
    static class Defaults {
    }

    @EmulatedSeqlink(links = "0-1:nvlink")
    static class Misconfigured {
    }

    @EmulatedSeqlink(devices = 65)
    static class TooMany {
    }

    @EmulatedSeqlink(devices = -1)
    static class Negative {
    }

    @Test
    void aDeviceCountOutsideOneToSixtyFourIsRejectedAtTheAnnotation() {
        for (Class<?> test : List.of(TooMany.class, Negative.class)) {
            EmulatedSeqlink a = test.getAnnotation(EmulatedSeqlink.class);
            assertThatIllegalArgumentException().isThrownBy(() -> EmulatedSeqlinkContextCustomizerFactory.properties(a))
                    .withMessageContaining("@EmulatedSeqlink(devices = " + a.devices() + "): give 1 to 64 devices, or 0");
        }
    }

    @Test
    void theAnnotationIsTheEmulatedBackendAndItsMachineAsProperties() {
        assertThat(EmulatedSeqlinkContextCustomizerFactory.properties(Full.class.getAnnotation(EmulatedSeqlink.class)))
                .containsExactly("seqlink.backend=emulated", "seqlink.verify.enabled=true",
                        "seqlink.emulated.device-count=4", "seqlink.emulated.links[0-1]=nvlink",
                        "seqlink.emulated.links[0-to-2]=pcie-peer", "seqlink.emulated.latency[1-3]=2us");
    }

    @Test
    void defaultsKeepTheApplicationsMachine() {
        assertThat(EmulatedSeqlinkContextCustomizerFactory.properties(Defaults.class.getAnnotation(EmulatedSeqlink.class)))
                .isEqualTo(List.of("seqlink.backend=emulated", "seqlink.verify.enabled=false"));
    }

    @Test
    void equalAnnotationsShareOneCachedContext() {
        EmulatedSeqlinkContextCustomizerFactory factory = new EmulatedSeqlinkContextCustomizerFactory();
        assertThat(factory.createContextCustomizer(Full.class, List.of()))
                .isEqualTo(factory.createContextCustomizer(Full.class, List.of()))
                .isNotEqualTo(factory.createContextCustomizer(Defaults.class, List.of()));
        assertThat(factory.createContextCustomizer(Object.class, List.of())).isNull();
    }

    @Test
    void aMalformedLinkEntryNamesTheFormToUse() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EmulatedSeqlinkContextCustomizerFactory.properties(
                        Misconfigured.class.getAnnotation(EmulatedSeqlink.class)))
                .withMessageContaining("write \"pair=value\", e.g. \"0-1=pcie-peer\"");
    }
}
