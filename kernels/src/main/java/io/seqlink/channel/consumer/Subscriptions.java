package io.seqlink.channel.consumer;

import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.channel.RetryPolicy;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A port's current subscription and its changes, with the settings every listener of the port shares (retry policy,
 * error handler). A change replaces the subscription as a whole under this object's lock, so every change is atomic
 * with every other (a subscribe-if-none included): the old subscription is removed first (no call of it begins from
 * then on), the new one takes over at its final handed sequence, and the port's armed round is released before the
 * change returns, so a round armed for the old listener never outlives it. The poller, arming concurrently, writes
 * its armed frame and then reads the subscription; a change writes the subscription and then releases whatever is
 * armed: one of the two sees the other (Dekker's argument on two volatiles), so an arm that raced a change is
 * released by one of them.
 *
 * <p>Every method is safe from any thread.
 */
final class Subscriptions {

    /** Builds the delivery of a new listener; called under the lock, before the subscription is visible. */
    interface Factory {
        ListenerDelivery create(Object listener);
    }

    private final String channel;
    private final int device;
    private final Runnable releaseArmed;
    private volatile Subscription current = Subscription.none(0);
    private volatile RetryPolicy retry = RetryPolicy.defaults();
    private volatile FrameErrorHandler errors;
    /** Set by the drain: no subscription delivers any more. */
    private boolean sealed;

    /**
     * @param releaseArmed releases the port's armed round, if any (any thread)
     * @param defaultErrors the error handler until one is set
     */
    Subscriptions(String channel, int device, Runnable releaseArmed, FrameErrorHandler defaultErrors) {
        this.channel = channel;
        this.device = device;
        this.releaseArmed = releaseArmed;
        this.errors = defaultErrors;
    }

    Subscription current() {
        return current;
    }

    RetryPolicy retry() {
        return retry;
    }

    FrameErrorHandler errors() {
        return errors;
    }

    void retry(RetryPolicy policy) {
        retry = Objects.requireNonNull(policy, "policy");
    }

    void errors(FrameErrorHandler handler) {
        errors = Objects.requireNonNull(handler, "handler");
    }

    /** Subscribes the listener {@code factory} makes a delivery for, replacing any other. */
    void subscribe(Object listener, Factory factory) {
        synchronized (this) {
            replace(factory.create(listener));
        }
        releaseArmed.run();
    }

    /**
     * Subscribes with {@code policy} and {@code errors} only if no listener is subscribed.
     *
     * @throws IllegalStateException naming both listeners when one is subscribed already
     */
    void subscribeIfNone(Object listener, Factory factory, RetryPolicy policy, FrameErrorHandler handler) {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(handler, "errors");
        synchronized (this) {
            Subscription now = current;
            if (now.subscribed()) {
                throw new IllegalStateException("consumer device " + device + " of channel '" + channel + "' already has the listener "
                        + now.describe() + ", so " + listener + " was not subscribed; a consumer has one listener: subscribe only one, "
                        + "or replace it on purpose with subscribe(...)");
            }
            ListenerDelivery delivery = factory.create(listener);
            retry = policy;
            errors = handler;
            replace(delivery);
        }
        releaseArmed.run();
    }

    /** Removes the listener; whether one was subscribed. */
    boolean unsubscribe() {
        boolean had;
        synchronized (this) {
            had = current.subscribed();
            replace(null);
        }
        releaseArmed.run();
        return had;
    }

    /**
     * The channel's drain: no listener is called from now on, a subscription made later included. Returns the highest
     * sequence the port ever handed a listener, which is final from here.
     */
    long seal() {
        synchronized (this) {
            sealed = true;
            Subscription s = current;
            s.remove();
            return s.handed();
        }
    }

    private void replace(@Nullable ListenerDelivery delivery) {
        Subscription old = current;
        old.remove();
        Subscription next = delivery == null ? Subscription.none(old.handed()) : Subscription.of(delivery, old.handed());
        if (sealed) {
            next.remove();
        }
        current = next;
    }
}
