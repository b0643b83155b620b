package io.seqlink.gpu;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.DeviceException;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;

/**
 * Run in a JVM of its own by {@link StickyErrorGpuTest}: a sticky fault poisons the device's context
 * for the rest of the process. Prints {@code key=value} lines the test checks.
 */
public final class StickyErrorMain {

    private StickyErrorMain() {
    }

    public static void main(String[] args) {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.CUDA).drainTimeout(Duration.ofSeconds(2)).open()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("doomed").producer(0).consumers(0).slots(64).slotBytes(256)
                    .stallTimeout(Duration.ofSeconds(2)).build());
            ch.consumer(0).subscribe(frame -> { });
            rt.start();
            for (int i = 0; i < 10; i++) {
                ch.offer(new byte[] {1, 2, 3}, 0, 3);
            }
            System.out.println("drained=" + rt.launcher().awaitDrained(Duration.ofSeconds(10)));
            System.out.println("before=" + ch.state());
            if (args.length > 0 && args[0].equals("trap")) {
                TestKernels.trap(ch.producerStream());
            } else {
                TestKernels.illegalAddress(ch.producerStream());
            }
            try {
                ch.producerStream().synchronize();
                System.out.println("fault=none");
            } catch (DeviceException ex) {
                System.out.println("fault=" + ex.errorName() + " sticky=" + ex.sticky() + " call=" + ex.call());
            }
            String offer = "accepted";
            for (int i = 0; i < 10; i++) {
                try {
                    long status = ch.offer(new byte[] {4, 5, 6}, 0, 3);
                    if (status < 0) {
                        offer = "status " + status;
                    }
                } catch (RuntimeException ex) {
                    offer = ex.getClass().getSimpleName() + ": " + ex.getMessage();
                    break;
                }
            }
            System.out.println("offer=" + offer);
            System.out.println("channel=" + ch.state());
        } catch (RuntimeException ex) {
            System.out.println("close=" + ex);
        }
        System.out.println("exit=clean");
    }
}
