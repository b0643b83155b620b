package io.seqlink.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The sending bridge as a consumer of its local port: it never holds up the device's other channels
 * while it waits for credits, and its close leaves the port without a listener, quietly, for a bridge
 * opened later to carry on from.
 */
class SendingBridgeOnItsPortTests {

    private static final ChannelSpec FRAMES = ChannelSpec.builder("frames").producer(0).consumers(1).slots(16).slotBytes(1024).build();

    /**
     * The receiver's listener is blocked, so its credits stop and the sender's window fills: the bridge's
     * listener waits for credit. Channel "other" has its consumer on the same device (1) as the bridge's
     * port; it must keep flowing meanwhile (the device loop hands the waiting listener to its own thread).
     */
    @Test
    void whileTheBridgeWaitsForCreditsAnotherChannelOnTheSameDeviceKeepsFlowing() throws Exception {
        UcxAvailable.assumeUcx();
        ChannelSpec other = ChannelSpec.builder("other").producer(0).consumers(1).slots(16).slotBytes(64).build();
        CountDownLatch release = new CountDownLatch(1);
        try (InProcessRig rig = new InProcessRig()) {
            PublishChannel out = rig.sending.openChannel(FRAMES);
            PublishChannel beside = rig.sending.openChannel(other);
            PublishChannel in = rig.receiving.openChannel(FRAMES);
            AtomicLong received = new AtomicLong();
            in.consumer(1).subscribe(f -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                received.incrementAndGet();
            });
            AtomicLong besideGot = new AtomicLong();
            beside.consumer(1).subscribe(f -> besideGot.incrementAndGet());
            InProcessRig.Link link = rig.link(out, in, BridgeSettings.defaults().withWindow(8));
            SendingBridge tx = link.tx();
            ReceivingBridge rx = link.rx();
            long sent = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!tx.snapshot().waitingForCredit() && System.nanoTime() < deadline) {
                if (out.offer(new byte[8], 0, 8) > 0) {
                    sent++;
                } else {
                    Thread.sleep(1); // polls with a deadline
                }
            }
            try {
                assertThat(tx.snapshot().waitingForCredit()).as("the bridge waiting for credits").isTrue();
                int n = 2_000;
                byte[] small = new byte[8];
                int offered = 0;
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (offered < n && System.nanoTime() - until < 0) {
                    if (beside.offer(small, 0, small.length) > 0) {
                        offered++;
                    } else {
                        Thread.onSpinWait();
                    }
                }
                assertThat(offered).as("the other channel's producer never stuck behind the waiting bridge").isEqualTo(n);
                InProcessRig.awaitThat(() -> besideGot.get() == n, "every frame of the other channel on device 1");
                assertThat(tx.snapshot().waitingForCredit()).as("still waiting: the receiver is still blocked").isTrue();
            } finally {
                release.countDown();
            }
            long total = sent;
            InProcessRig.awaitThat(() -> received.get() == total, "every bridged frame once the receiver moves again");
            assertThat(tx.close(Duration.ofSeconds(5)).clean()).isTrue();
            assertThat(rx.close(Duration.ofSeconds(5)).clean()).isTrue();
        }
    }

    /**
     * Closed while its local channel stays open, the bridge leaves the port with no listener: frames
     * published afterwards wait in the channel, no error is logged for them (before, the port logged
     * "the error handler refused it" at ERROR once a second), and a sender opened again on the same
     * port carries them.
     */
    @Test
    void aClosedSenderLeavesItsPortQuietAndWithoutAListenerAndASenderOpenedAgainCarriesWhatWaited() throws Exception {
        UcxAvailable.assumeUcx();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger channelLogs = (Logger) LoggerFactory.getLogger("io.seqlink.channel");
        logged.start();
        channelLogs.addAppender(logged);
        try (InProcessRig rig = new InProcessRig()) {
            PublishChannel out = rig.sending.openChannel(FRAMES);
            PublishChannel in = rig.receiving.openChannel(FRAMES);
            AtomicLong got = new AtomicLong();
            AtomicLong outOfOrder = new AtomicLong();
            in.consumer(1).subscribe(f -> {
                if (f.payload().order(ByteOrder.LITTLE_ENDIAN).getLong(0) != got.incrementAndGet()) {
                    outOfOrder.incrementAndGet();
                }
            });
            InProcessRig.Link link = rig.link(out, in, BridgeSettings.defaults());
            SendingBridge tx = link.tx();
            ReceivingBridge rx = link.rx();
            offer(out, 1, 100);
            InProcessRig.awaitThat(() -> got.get() == 100, "the first 100 frames");
            assertThat(tx.close(Duration.ofSeconds(5)).clean()).isTrue();
            assertThat(out.consumer(1).subscribed()).as("the closed bridge's port has no listener").isFalse();

            offer(out, 101, 110);
            long quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500); // more than one 1 s retry period of a hold
            while (System.nanoTime() - quietUntil < 0) {
                assertThat(logged.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).isEmpty();
                Thread.sleep(10); // watches the log for a while: an error would come within a second
            }
            assertThat(out.consumer(1).backlog()).as("the frames published after the close wait in the channel").isEqualTo(10);
            assertThat(got.get()).isEqualTo(100);

            SendingBridge again = rig.ucx.openSender(out, 1, rx.boundAddress(), InProcessRig.authenticated(BridgeSettings.defaults()));
            InProcessRig.awaitThat(() -> got.get() == 110, "the waiting frames, carried by the sender opened again");
            assertThat(outOfOrder.get()).isZero();
            assertThat(again.close(Duration.ofSeconds(5)).clean()).isTrue();
            assertThat(rx.close(Duration.ofSeconds(5)).clean()).isTrue();
        } finally {
            channelLogs.detachAppender(logged);
        }
    }

    private static void offer(PublishChannel out, long from, long to) {
        byte[] frame = new byte[16];
        for (long i = from; i <= to; i++) {
            ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).putLong(0, i);
            while (out.offer(frame, 0, frame.length) < 0) {
                Thread.onSpinWait();
            }
        }
    }

}
