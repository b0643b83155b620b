package io.seqlink.channel;

import java.util.Objects;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer port's subscription and its changes. The subscription is one volatile, immutable
 * {@link Subscription} that a round reads once; every change replaces it while holding the port's
 * monitor, so a subscribe-if-none is atomic with every other change.
 */
final class PortSubscriptions {

    private static final Logger log = LoggerFactory.getLogger(ConsumerPort.class);

    private final ConsumerPort port;
    private final ConsumerTransport binding;
    private volatile Subscription subscription;

    PortSubscriptions(ConsumerPort port, ConsumerTransport binding) {
        this.port = port;
        this.binding = binding;
        this.subscription = Subscription.none(new LoggingFrameErrorHandler());
    }

    Subscription current() {
        return subscription;
    }

    /** Applies {@code change}; {@code host} says the new listener runs on the host (it needs the host ring). */
    void change(UnaryOperator<Subscription> change, boolean host) {
        synchronized (port) {
            if (host && port.state() != ConsumerState.CLOSED) {
                binding.hostRing(); // allocated before any round can see the subscription
            }
            subscription = change.apply(subscription);
        }
    }

    /** Applies {@code as} with {@code policy} and {@code errors} only if the port has no listener; else throws. */
    void changeIfNone(Object listener, UnaryOperator<Subscription> as, RetryPolicy policy, FrameErrorHandler errors, boolean host) {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(errors, "errors");
        synchronized (port) {
            Subscription now = subscription;
            if (now.subscribed()) {
                throw new IllegalStateException("consumer device " + port.device() + " of channel '" + port.channel() + "' already has the "
                        + "listener " + now.describe() + ", so " + listener + " was not subscribed; a consumer has one listener: subscribe "
                        + "only one, or replace it on purpose with subscribe(...)");
            }
            change(s -> as.apply(s.withRetry(policy).withErrors(errors)), host);
        }
    }

    /** The default dead-letter hook: logs the frame at ERROR; the consumer's dead-lettered counter counts it. */
    private final class LoggingFrameErrorHandler implements FrameErrorHandler {
        @Override
        public void onFailedFrame(Frame frame, Exception cause) {
            log.error("seqlink channel '{}' consumer {}: frame {} ({} B) failed {} deliveries and is dead-lettered", port.channel(),
                    port.device(), frame.sequence(), frame.length(), subscription.retry.maxAttempts(), cause);
        }
    }
}
