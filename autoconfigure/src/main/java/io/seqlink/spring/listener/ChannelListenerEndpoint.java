package io.seqlink.spring.listener;

import java.lang.reflect.Method;
import java.util.Objects;

/**
 * One {@link ChannelListener} method, ready to be bound to its channel's consumers.
 *
 * @param id       the listener's id
 * @param beanName the bean that declares it
 * @param bean     that bean (possibly a proxy)
 * @param method   the method to invoke on {@code bean}
 * @param channel  the channel's name, placeholders resolved
 * @param device   the consumer device, or {@link ChannelListener#ALL_DEVICES}
 * @param kind     what the method takes
 * @param contextIndex the index of its {@link ListenerContext} parameter, or -1
 * @param dataIndex the index of its frame, batch or device-frames parameter
 * @param armedRounds a device listener that takes armed rounds ({@link ChannelListener#armedRounds})
 * @param acknowledgesInKernel a device listener whose last kernel acknowledges ({@link ChannelListener#acknowledgesInKernel})
 * @param consumesInKernel a device listener whose one kernel is the round ({@link ChannelListener#consumesInKernel})
 */
public record ChannelListenerEndpoint(String id, String beanName, Object bean, Method method, String channel, int device,
        Kind kind, int contextIndex, int dataIndex, boolean armedRounds, boolean acknowledgesInKernel, boolean consumesInKernel) {

    public ChannelListenerEndpoint {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(bean, "bean");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(kind, "kind");
    }

    /** An endpoint without the device-listener options ({@code armedRounds}, {@code acknowledgesInKernel}, {@code consumesInKernel} false). */
    public ChannelListenerEndpoint(String id, String beanName, Object bean, Method method, String channel, int device, Kind kind,
            int contextIndex, int dataIndex) {
        this(id, beanName, bean, method, channel, device, kind, contextIndex, dataIndex, false, false, false);
    }

    /** What a listener method takes. */
    public enum Kind {
        /** One {@link io.seqlink.channel.Frame} per call. */
        FRAME,
        /** A {@code List<Frame>}: the frames of one consume round per call. */
        BATCH,
        /** {@link io.seqlink.channel.DeviceFrames}: enqueue device work on the round's frames. */
        DEVICE
    }

    /** {@code Bean.method(..)}, for messages. */
    public String describe() {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + " (bean '" + beanName + "')";
    }

    @Override
    public String toString() {
        return "ChannelListenerEndpoint[" + id + " -> " + channel + (device < 0 ? "" : "@" + device) + ", " + kind + "]";
    }
}
