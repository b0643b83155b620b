package io.seqlink.channel.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.layout.ConsumerBlock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/** The cancel word kernels read is the device block's, and racing cancellers never lower it. */
class CancelMarkTest {

    @Test
    void theDeviceWordFollowsTheHostRecordAndNeverGoesBack() throws Exception {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(1)).open()) {
            Device device = rt.backend().device(0);
            MappedBuffer mirror = device.allocateMapped(ConsumerBlock.BYTES);
            DeviceBuffer block = device.allocate(ConsumerBlock.BYTES);
            MappedBuffer readBack = device.allocateMapped(ConsumerBlock.BYTES);
            DeviceStream stream = device.newStream("read-back");
            CancelMark mark = new CancelMark(mirror, block, device);

            int threads = 4;
            int raises = 5_000;
            CountDownLatch start = new CountDownLatch(1);
            Thread[] cancellers = new Thread[threads];
            long[] highest = new long[threads];
            for (int t = 0; t < threads; t++) {
                int index = t;
                cancellers[t] = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < raises; i++) {
                        long round = ThreadLocalRandom.current().nextLong(1, 1_000_000);
                        mark.raise(round);
                        highest[index] = Math.max(highest[index], round);
                    }
                });
                cancellers[t].start();
            }
            start.countDown();
            for (Thread canceller : cancellers) {
                canceller.join();
            }
            long max = 0;
            for (long h : highest) {
                max = Math.max(max, h);
            }
            stream.copy(block, ConsumerBlock.ARM_CANCEL, readBack, 0, 8);
            stream.synchronize();
            assertThat(mirror.getAcquire(ConsumerBlock.ARM_CANCEL)).isEqualTo(max);
            assertThat(readBack.getAcquire(0)).as("the device block's word, which kernels read").isEqualTo(max);
            stream.close();
        }
    }
}
