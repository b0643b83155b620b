package io.seqlink.ucx.process;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.BridgeSnapshot;
import io.seqlink.ucx.ReceivingBridge;
import io.seqlink.ucx.SendingBridge;
import io.seqlink.ucx.UcxBridge;
import io.seqlink.ucx.UcxTransport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

/**
 * One end of a bridged channel in a process of its own, driven by {@link PeerProcess} in the tests.
 * It prints {@code READY}, then a {@code STATUS} line every 50 ms, and stops on "stop" from stdin.
 *
 * <pre>
 *   receive PORT SLOT_BYTES [LISTENER_DELAY_NANOS]      listens, verifies every frame
 *   send HOST:PORT SLOT_BYTES FRAMES FIRST_ID           produces FRAMES frames with ids FIRST_ID.., then waits
 *                                                       ("reconnect" on stdin: the bridge reconnects)
 * </pre>
 */
public final class BridgePeer {

    static final Duration HEARTBEAT = Duration.ofMillis(50);
    static final Duration LINK_TIMEOUT = Duration.ofMillis(600);
    static final Duration CONNECT_TIMEOUT = Duration.ofMillis(500);
    /** The secret both test processes share unless {@code -Dseqlink-test.secret} gives another. */
    static final String SECRET = "two-process-test-secret-0123456789";

    private BridgePeer() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int slotBytes = Integer.parseInt(args[2]);
        ChannelSpec spec = ChannelSpec.builder("frames").producer(0).consumers(1).slots(256).slotBytes(slotBytes).build();
        BridgeSettings settings = BridgeSettings.defaults().withWindow(128).withTimeouts(HEARTBEAT, LINK_TIMEOUT, CONNECT_TIMEOUT)
                .withSecret(SharedSecret.of(System.getProperty("seqlink-test.secret", SECRET), "-Dseqlink-test.secret"));
        try (SeqlinkRuntime runtime = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
                UcxTransport ucx = UcxTransport.open(Map.of("TLS", "tcp"))) {
            PublishChannel channel = runtime.openChannel(spec);
            if (mode.equals("receive")) {
                receive(runtime, ucx, channel, Integer.parseInt(args[1]), args.length > 3 ? Long.parseLong(args[3]) : 0, settings);
            } else {
                String[] hostPort = args[1].split(":");
                send(runtime, ucx, channel, new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])),
                        Long.parseLong(args[3]), Long.parseLong(args[4]), settings);
            }
        }
        System.out.println("EXIT");
    }

    private static void receive(SeqlinkRuntime runtime, UcxTransport ucx, PublishChannel channel, int port, long delayNanos,
            BridgeSettings settings) throws Exception {
        ReceivedFrames seen = new ReceivedFrames();
        ReceivingBridge[] bridge = new ReceivingBridge[1];
        CRC32C crc = new CRC32C();
        channel.consumer(1).subscribe(frame -> {
            seen.take(TestFrames.check(frame.payload(), crc), bridge[0].senderEpoch(frame.sequence()));
            if (delayNanos > 0) {
                LockSupport.parkNanos(delayNanos);
            }
        });
        runtime.start();
        bridge[0] = ucx.openReceiver(channel, new InetSocketAddress("127.0.0.1", port), settings);
        System.out.println("READY port=" + bridge[0].boundAddress().getPort());
        report(bridge[0], () -> seen.describe());
    }

    private static void send(SeqlinkRuntime runtime, UcxTransport ucx, PublishChannel channel, InetSocketAddress peer, long frames,
            long firstId, BridgeSettings settings) throws Exception {
        SendingBridge bridge = ucx.openSender(channel, 1, peer, settings);
        runtime.start();
        System.out.println("READY");
        long[] produced = new long[2]; // produced, back-pressured offers
        Thread producer = new Thread(() -> {
            int length = (int) channel.spec().slotBytes();
            ByteBuffer frame = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            CRC32C crc = new CRC32C();
            for (long id = firstId; id < firstId + frames; id++) {
                TestFrames.fill(frame, id, length, crc);
                while (channel.offer(frame.array(), 0, length) < 0) {
                    produced[1]++;
                    LockSupport.parkNanos(20_000);
                }
                produced[0]++;
            }
        }, "producer");
        producer.setDaemon(true);
        producer.start();
        report(bridge, () -> "produced=" + produced[0] + " backpressured=" + produced[1]);
    }

    /** STATUS lines until "stop" arrives; then closes the bridge and prints its report. */
    private static void report(UcxBridge bridge, java.util.function.Supplier<String> extra) throws Exception {
        Thread stdin = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                String line;
                while ((line = in.readLine()) != null && !line.equals("stop")) {
                    if (line.equals("reconnect") && bridge instanceof SendingBridge sender) {
                        sender.reconnect();
                    }
                }
            } catch (java.io.IOException ignored) {
                // stdin closed: stop too
            }
        }, "stdin");
        stdin.setDaemon(true);
        stdin.start();
        while (stdin.isAlive()) {
            BridgeSnapshot s = bridge.snapshot();
            System.out.println("STATUS state=" + s.state() + " staged=" + s.staged() + " sent=" + s.sent() + " received="
                    + s.received() + " consumed=" + s.consumed() + " reconnects=" + s.reconnects() + " resent=" + s.resent()
                    + " epoch=" + s.epoch() + " refusedHandshakes=" + s.refusals().handshakes() + " authFailures="
                    + s.refusals().authFailures() + " protocolErrors=" + s.refusals().protocolErrors() + " refusedSenders="
                    + s.refusals().senders() + " " + extra.get() + " problem=" + String.valueOf(s.problem()).replace(' ', '_'));
            stdin.join(50);
        }
        System.out.println("CLOSED " + bridge.close(Duration.ofSeconds(5)) + " " + extra.get());
    }
}
