package io.seqlink.channel;

import java.util.Objects;

/**
 * What a consumer delivers to and how: one listener (per frame, per batch, or per device round), its
 * retry policy and its dead-letter hook. Immutable: a port holds one in a volatile field, replaced as a
 * whole, and each round reads it once, so a listener changed mid-round never mixes with the old one.
 */
final class Subscription {

    enum Kind {
        NONE, FRAME, BATCH, DEVICE
    }

    final Kind kind;
    final FrameHandler frames;
    final FrameBatchHandler batches;
    final DeviceFrameHandler device;
    final RetryPolicy retry;
    final FrameErrorHandler errors;

    private Subscription(Kind kind, FrameHandler frames, FrameBatchHandler batches, DeviceFrameHandler device, RetryPolicy retry,
            FrameErrorHandler errors) {
        this.kind = kind;
        this.frames = frames;
        this.batches = batches;
        this.device = device;
        this.retry = Objects.requireNonNull(retry, "policy");
        this.errors = Objects.requireNonNull(errors, "handler");
    }

    static Subscription none(FrameErrorHandler defaultErrors) {
        return new Subscription(Kind.NONE, null, null, null, RetryPolicy.defaults(), defaultErrors);
    }

    Subscription withFrames(FrameHandler handler) {
        return new Subscription(Kind.FRAME, Objects.requireNonNull(handler, "handler"), null, null, retry, errors);
    }

    Subscription withBatches(FrameBatchHandler handler) {
        return new Subscription(Kind.BATCH, null, Objects.requireNonNull(handler, "handler"), null, retry, errors);
    }

    Subscription withDevice(DeviceFrameHandler handler) {
        return new Subscription(Kind.DEVICE, null, null, Objects.requireNonNull(handler, "handler"), retry, errors);
    }

    /** No listener; the retry policy and error handler stay (a later listener keeps them unless it sets its own). */
    Subscription withoutListener() {
        return new Subscription(Kind.NONE, null, null, null, retry, errors);
    }

    /** Whether {@code other} delivers to the same listener (a changed retry policy or error handler does not count). */
    boolean sameListener(Subscription other) {
        return kind == other.kind && frames == other.frames && batches == other.batches && device == other.device;
    }

    Subscription withRetry(RetryPolicy policy) {
        return new Subscription(kind, frames, batches, device, policy, errors);
    }

    Subscription withErrors(FrameErrorHandler handler) {
        return new Subscription(kind, frames, batches, device, retry, handler);
    }

    boolean subscribed() {
        return kind != Kind.NONE;
    }

    boolean host() {
        return kind == Kind.FRAME || kind == Kind.BATCH;
    }

    /** The listener, as its {@code toString()} names it (the Spring layer names the {@code @ChannelListener} method). */
    String describe() {
        Object l = kind == Kind.FRAME ? frames : kind == Kind.BATCH ? batches : device;
        return l == null ? "no listener" : String.valueOf(l);
    }
}
