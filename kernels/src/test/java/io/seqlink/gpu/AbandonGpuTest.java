package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.ReadMode;
import io.seqlink.testing.PaddingFlagsListener;
import io.seqlink.topology.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Claims given back on a real GPU, over every transport and read mode: frame 2 by {@code abandon()}, frame 4
 * by a producer thread that dies holding it (the next offer gives it back). The padding's length word must
 * reach the ring the consumer reads, the replicas the publish step's grid writes included: a host listener
 * never sees it, and a device listener's kernel ({@code test_abandoned}) finds {@code seqlink::device::abandoned}
 * true for exactly 2 and 4.
 */
@Tag("gpu")
class AbandonGpuTest {

    static Stream<Arguments> transportsAndReadModes() {
        return Stream.of(Transport.SAME_DEVICE, Transport.PEER_ATOMIC, Transport.PEER_COPY, Transport.HOST_STAGED)
                .flatMap(t -> Stream.of(ReadMode.COPY, ReadMode.DIRECT).map(m -> Arguments.of(t, m)));
    }

    private static ChannelSpec spec(String name, Transport transport, ReadMode readMode) {
        return ChannelSpec.builder(name + "-" + transport.name().toLowerCase() + "-" + readMode.name().toLowerCase()).producer(0)
                .consumers(0).slots(16).slotBytes(4096).transport(transport).readMode(readMode).build();
    }

    /** Frames 1, 3, 5 offered; 2 given back by abandon(), 4 by the offer of 5 after its thread died. */
    private static void produce(PublishChannel ch) throws InterruptedException {
        byte[] frame = new byte[1024];
        assertThat(ch.offer(frame, 0, frame.length)).isEqualTo(1);
        assertThat(ch.tryClaim()).isEqualTo(2);
        ch.buffer().putLong(0, 42);
        assertThat(ch.abandon()).isTrue();
        assertThat(ch.offer(frame, 0, frame.length)).isEqualTo(3);
        AtomicLong doomedClaim = new AtomicLong();
        Thread doomed = new Thread(() -> doomedClaim.set(ch.tryClaim()), "doomed-producer");
        doomed.start();
        doomed.join(10_000);
        assertThat(doomedClaim.get()).isEqualTo(4);
        assertThat(ch.offer(frame, 0, frame.length)).as("gives the dead thread's claim back").isEqualTo(5);
        assertThat(ch.snapshot().claimsAbandoned()).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("transportsAndReadModes")
    void aHostListenerNeverSeesPadding(Transport transport, ReadMode readMode) throws Exception {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("padding-host", transport, readMode));
            List<Long> got = new CopyOnWriteArrayList<>();
            ConsumerPort port = ch.consumer(0).subscribe(f -> got.add(f.sequence()));
            produce(ch);
            assertThat(Gpu.await(() -> port.poll(8) >= 0 && port.snapshot().delivered() == 3)).as("%s", port.snapshot()).isTrue();
            assertThat(got).containsExactly(1L, 3L, 5L);
            assertThat(port.snapshot().paddingSkipped()).isEqualTo(2);
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
            assertThat(report.clean()).as("%s", report).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("transportsAndReadModes")
    void aDeviceListenersKernelFindsThePaddingWithAbandoned(Transport transport, ReadMode readMode) throws Exception {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            PublishChannel ch = rt.openChannel(spec("padding-device", transport, readMode));
            PaddingFlagsListener flags = new PaddingFlagsListener(ch.consumer(0).stream(), 8);
            ConsumerPort port = ch.consumer(0).subscribeDevice(flags);
            produce(ch);
            assertThat(Gpu.await(() -> port.poll(8) >= 0 && port.snapshot().delivered() == 3)).as("%s", port.snapshot()).isTrue();
            assertThat(Gpu.await(() -> flags.flag(5) != 0)).isTrue();
            assertThat(List.of(flags.flag(1), flags.flag(2), flags.flag(3), flags.flag(4), flags.flag(5)))
                    .as("seqlink::device::abandoned(c, s) for 1..5 (1: padding, 2: a frame)").containsExactly(2L, 1L, 2L, 1L, 2L);
            assertThat(port.snapshot().paddingSkipped()).isEqualTo(2);
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
            assertThat(report.clean()).as("%s", report).isTrue();
            flags.close();
        }
    }
}
