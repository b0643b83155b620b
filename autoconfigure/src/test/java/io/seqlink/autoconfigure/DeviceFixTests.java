package io.seqlink.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.MissingDevicesException;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.diagnostics.FailureAnalysisTester;
import io.seqlink.backend.BackendKind;
import io.seqlink.channel.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Every fix a device problem suggests works on the backend in use: on the emulated backend a device
 * beyond the simulated machine is fixed by {@code seqlink.emulated.device-count} (adding it to
 * {@code seqlink.topology.devices} would only move the error), on CUDA by another GPU.
 */
class DeviceFixTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class))
            .withPropertyValues("seqlink.backend=emulated", "seqlink.verify.enabled=false", "seqlink.emulated.device-count=2");

    @Test
    void aConsumerBeyondTheEmulatedMachineIsFixedByRaisingTheDeviceCount() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1,3").run(context -> {
            String action = FailureAnalysisTester.analyze(context.getStartupFailure()).getAction();
            assertThat(action).contains("seqlink.channels.frames.consumers: pick devices from [0, 1], or raise "
                    + "seqlink.emulated.device-count to 4").doesNotContain("seqlink.topology.devices");
        });
    }

    @Test
    void theSuggestedDeviceCountStartsTheChannel() {
        runner.withPropertyValues("seqlink.channels.frames.consumers=1,3", "seqlink.emulated.device-count=4")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aListedTopologyNeedsTheDeviceAddedAsWell() {
        runner.withPropertyValues("seqlink.topology.devices=0,1", "seqlink.channels.frames.producer=2",
                "seqlink.channels.frames.consumers=1").run(context -> {
                    String action = FailureAnalysisTester.analyze(context.getStartupFailure()).getAction();
                    assertThat(action).contains("seqlink.channels.frames.producer: pick one of [0, 1], or raise "
                            + "seqlink.emulated.device-count to 3 and add 2 to seqlink.topology.devices");
                });
    }

    @Test
    void aTopologyDeviceBeyondTheEmulatedMachineIsFixedByRaisingTheDeviceCount() {
        runner.withPropertyValues("seqlink.topology.devices=0,1,2").run(context -> {
            String action = FailureAnalysisTester.analyze(context.getStartupFailure()).getAction();
            assertThat(action).contains("seqlink.topology.devices: list devices between 0 and 1, or raise "
                    + "seqlink.emulated.device-count to 3");
        });
    }

    @Test
    void onCudaAMissingDeviceIsNotFixedByAnyEmulatedProperty() {
        SeqlinkProperties properties = new Binder(new MapConfigurationPropertySource(java.util.Map.of("seqlink.topology.devices", "0,1,2")))
                .bindOrCreate("seqlink", SeqlinkProperties.class);
        List<Violation> v = DeviceViolations.ofTopology(
                new MissingDevicesException(BackendKind.CUDA, "CUDA, 2 device(s)", 2, List.of(2)), properties);
        assertThat(v).singleElement().satisfies(x -> {
            assertThat(x.property()).isEqualTo("seqlink.topology.devices");
            assertThat(x.fix()).isEqualTo("list devices between 0 and 1: this machine has 2 GPU(s) (nvidia-smi -L lists them)");
        });
    }
}
