package io.seqlink.spring.listener;

import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameBatchHandler;
import io.seqlink.channel.FrameContext;
import io.seqlink.channel.FrameHandler;
import io.seqlink.topology.Transport;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;
import org.jspecify.annotations.Nullable;

/**
 * Calls one {@link ChannelListener} method for one consumer. Runs on the thread that delivers that
 * consumer's rounds (its listener thread; one round at a time), so its flyweights (frame, batch list,
 * context, argument array) are reused without locks; each is closed when the call returns, so a
 * listener that kept one gets an {@link IllegalStateException} instead of a frame that has since been
 * overwritten.
 */
final class ListenerInvoker implements FrameHandler, FrameBatchHandler, DeviceFrameHandler {

    private static final String KEPT = "used after its @ChannelListener call returned: frames, batches and contexts "
            + "are flyweights reused for the next frame; copy what you keep";

    private final ChannelListenerEndpoint endpoint;
    private final Object bean;
    private final Method method;
    private final Object[] args;
    private final Context context;
    private final ScopedFrame frame = new ScopedFrame();
    private final ScopedFrameList batch = new ScopedFrameList();
    private long lastDeviceFirst = -1;
    private boolean lastDeviceFailed;
    private int deviceAttempt;

    ListenerInvoker(ChannelListenerEndpoint endpoint, ConsumerPort port, int producer) {
        this.endpoint = endpoint;
        this.bean = endpoint.bean();
        this.method = endpoint.method();
        this.args = new Object[method.getParameterCount()];
        this.context = new Context(endpoint.id(), port.channel(), producer, port.device(), port.transport());
    }

    @Override
    public void onFrame(Frame f) throws Exception {
        frame.delegate = f;
        context.attempt = f.attempt();
        frame.open = true;
        context.open = true;
        try {
            invoke(frame);
        } finally {
            frame.open = false;
            context.open = false;
            frame.delegate = null;
        }
    }

    @Override
    public void onBatch(List<Frame> frames) throws Exception {
        batch.bind(frames);
        context.attempt = frames.isEmpty() ? 1 : frames.get(0).attempt();
        context.open = true;
        try {
            invoke(batch);
        } finally {
            batch.unbind();
            context.open = false;
        }
    }

    @Override
    public boolean acceptsArmedRounds() {
        return endpoint.armedRounds();
    }

    @Override
    public boolean acknowledgesInKernel() {
        return endpoint.acknowledgesInKernel();
    }

    @Override
    public boolean consumesInKernel() {
        return endpoint.consumesInKernel();
    }

    @Override
    public void onFrames(DeviceFrames frames) throws Exception {
        if (frames.first() == lastDeviceFirst && lastDeviceFailed) {
            deviceAttempt++;
        } else {
            deviceAttempt = 1;
        }
        lastDeviceFirst = frames.first();
        context.attempt = deviceAttempt;
        context.open = true;
        lastDeviceFailed = true;
        try {
            invoke(frames);
            lastDeviceFailed = false;
        } finally {
            context.open = false;
        }
    }

    /** Names the method, for logs and drain reports ("a listener that did not return"). */
    @Override
    public String toString() {
        return "@ChannelListener " + endpoint.id() + " " + endpoint.describe();
    }

    private void invoke(Object data) throws Exception {
        args[endpoint.dataIndex()] = data;
        if (endpoint.contextIndex() >= 0) {
            args[endpoint.contextIndex()] = context;
        }
        try {
            method.invoke(bean, args);
        } catch (InvocationTargetException ex) {
            Throwable t = ex.getTargetException();
            if (t instanceof Exception e) {
                throw e;
            }
            if (t instanceof VirtualMachineError e) {
                throw e;
            }
            throw new ChannelListenerExecutionException("@ChannelListener " + endpoint.describe() + " failed: " + t, t);
        } catch (IllegalAccessException ex) {
            throw new ChannelListenerExecutionException("@ChannelListener " + endpoint.describe() + " cannot be invoked", ex);
        } finally {
            Arrays.fill(args, null);
        }
    }

    /** A frame valid only while the listener runs. */
    private static final class ScopedFrame implements Frame {
        @Nullable Frame delegate;
        boolean open;

        private Frame d() {
            Frame f = delegate;
            if (!open || f == null) { // null: read from another thread as the listener returned
                throw new IllegalStateException("seqlink Frame " + KEPT);
            }
            return f;
        }

        @Override
        public String channel() {
            return d().channel();
        }

        @Override
        public int consumerDevice() {
            return d().consumerDevice();
        }

        @Override
        public long sequence() {
            return d().sequence();
        }

        @Override
        public int length() {
            return d().length();
        }

        @Override
        public ByteBuffer payload() {
            return d().payload();
        }

        @Override
        public int attempt() {
            return d().attempt();
        }

        @Override
        public boolean hasContext() {
            return d().hasContext();
        }

        @Override
        public boolean context(FrameContext into) {
            return d().context(into);
        }

        @Override
        public String toString() {
            Frame f = delegate;
            return open && f != null ? "Frame[" + f.channel() + "#" + f.sequence() + ", " + f.length() + " B]"
                    : "Frame[released]";
        }
    }

    /** A batch valid only while the listener runs; its frames are scoped the same way. */
    private static final class ScopedFrameList extends AbstractList<Frame> implements RandomAccess {
        private ScopedFrame[] frames = new ScopedFrame[0];
        private int size;
        private boolean open;

        void bind(List<Frame> source) {
            int n = source.size();
            if (frames.length < n) {
                ScopedFrame[] grown = Arrays.copyOf(frames, Math.max(n, frames.length * 2));
                for (int i = frames.length; i < grown.length; i++) {
                    grown[i] = new ScopedFrame();
                }
                frames = grown;
            }
            for (int i = 0; i < n; i++) {
                frames[i].delegate = source.get(i);
                frames[i].open = true;
            }
            size = n;
            open = true;
        }

        void unbind() {
            for (int i = 0; i < size; i++) {
                frames[i].open = false;
                frames[i].delegate = null;
            }
            size = 0;
            open = false;
        }

        @Override
        public Frame get(int index) {
            check();
            if (index < 0 || index >= size) {
                throw new IndexOutOfBoundsException("index " + index + " outside a batch of " + size);
            }
            return frames[index];
        }

        @Override
        public int size() {
            check();
            return size;
        }

        private void check() {
            if (!open) {
                throw new IllegalStateException("seqlink batch " + KEPT);
            }
        }
    }

    private static final class Context implements ListenerContext {
        private final String id;
        private final String channel;
        private final int producer;
        private final int device;
        private final Transport transport;
        int attempt;
        boolean open;

        Context(String id, String channel, int producer, int device, Transport transport) {
            this.id = id;
            this.channel = channel;
            this.producer = producer;
            this.device = device;
            this.transport = transport;
        }

        @Override
        public String listenerId() {
            return id;
        }

        @Override
        public String channel() {
            return channel;
        }

        @Override
        public int producer() {
            return producer;
        }

        @Override
        public int device() {
            return device;
        }

        @Override
        public Transport transport() {
            return transport;
        }

        @Override
        public int attempt() {
            if (!open) {
                throw new IllegalStateException("seqlink ListenerContext " + KEPT);
            }
            return attempt;
        }

        @Override
        public String toString() {
            return "ListenerContext[" + id + ", " + channel + " -> device " + device + ", " + transport + "]";
        }
    }
}
