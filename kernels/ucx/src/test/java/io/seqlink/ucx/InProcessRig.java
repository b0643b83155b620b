package io.seqlink.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Both ends of a bridge in one JVM: a sending and a receiving emulated runtime of two devices each,
 * and one UCX context (tcp over loopback). Closes the transport, then both runtimes.
 */
final class InProcessRig implements AutoCloseable {

    final SeqlinkRuntime sending;
    final SeqlinkRuntime receiving;
    final UcxTransport ucx;

    /** The two bridges of a channel. */
    record Link(SendingBridge tx, ReceivingBridge rx) {
    }

    InProcessRig() {
        sending = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
        try {
            receiving = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
            try {
                ucx = UcxTransport.open(Map.of("TLS", "tcp"));
            } catch (RuntimeException ex) {
                receiving.close();
                throw ex;
            }
        } catch (RuntimeException ex) {
            sending.close();
            throw ex;
        }
    }

    /**
     * Starts the receiving runtime (its listeners subscribed already), opens the receiver of {@code in}
     * on a loopback port the system picks and the sender of {@code out} on its consumer device 1, then
     * starts the sending runtime.
     */
    Link link(PublishChannel out, PublishChannel in, BridgeSettings settings) {
        receiving.start();
        BridgeSettings trusted = authenticated(settings);
        ReceivingBridge rx = ucx.openReceiver(in, new InetSocketAddress("127.0.0.1", 0), trusted);
        SendingBridge tx = ucx.openSender(out, 1, rx.boundAddress(), trusted);
        sending.start();
        return new Link(tx, rx);
    }

    /** The secret the tests' bridges share. */
    static final SharedSecret SECRET = SharedSecret.of("in-process-test-secret-0123456789", "InProcessRig.SECRET");

    /** {@code settings} with {@link #SECRET}, unless they have a secret or allow none. */
    static BridgeSettings authenticated(BridgeSettings settings) {
        BridgeSecurity s = settings.security();
        return s.authenticates() || s.allowUnauthenticated() ? settings : settings.withSecret(SECRET);
    }

    /** Polls {@code condition} until it holds, failing with {@code what} after 30 s. */
    static void awaitThat(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(what).isNegative();
            Thread.sleep(1); // polls with a deadline
        }
    }

    @Override
    public void close() {
        try {
            ucx.close();
        } finally {
            try {
                receiving.close();
            } finally {
                sending.close();
            }
        }
    }
}
