package io.seqlink.channel.shared;

import io.seqlink.backend.Backend;
import io.seqlink.backend.Device;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelAttachException;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ReadMode;
import io.seqlink.channel.consumer.DefaultConsumerPort;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Attaches this process to a channel another process of the host shares: connects to its socket, runs the handshake,
 * maps the region, checks it against what the producer announced, and builds an ordinary consumer port over the shared
 * replica (a host listener reads it in place, a device listener's steps and kernels read it through the device's
 * mapping of the region; each round is checked against the seat's lease, and its acknowledgement lands in the seat the
 * producer gates on only after that check).
 * Stateless; any thread.
 */
public final class AttachedChannels {

    private AttachedChannels() {
    }

    /**
     * Attaches as {@code spec} says; {@code register} hands the port to the launcher before the heartbeat starts, and
     * {@code unregister} takes it back as the attachment closes. Fails with {@link ChannelAttachException} naming the
     * cause and the fix, having changed nothing (a seat the producer gave is dropped as the connection closes).
     */
    public static AttachedChannel attach(Backend backend, AttachSpec spec, Consumer<ConsumerPort> register,
            Consumer<ConsumerPort> unregister) {
        Path dir = spec.directory().toAbsolutePath();
        Path socket = SharedDirectory.socket(dir, spec.name());
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new ChannelAttachException(ChannelAttachException.Reason.NO_PRODUCER, "attach to channel '" + spec.name()
                    + "': no producer shares it in " + dir + " (the directory does not exist); start the producer with "
                    + "ChannelSpec.Builder.share, or check AttachSpec.directory", null);
        }
        try {
            SharedDirectory.check(dir, "AttachSpec.directory");
        } catch (IOException e) {
            throw new ChannelAttachException(ChannelAttachException.Reason.DIRECTORY, "attach to channel '" + spec.name() + "': "
                    + e.getMessage(), e);
        }
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            throw new ChannelAttachException(ChannelAttachException.Reason.NO_PRODUCER, "attach to channel '" + spec.name()
                    + "': no producer shares it in " + dir + " (no "
                    + socket.getFileName() + "); start the producer with ChannelSpec.Builder.share, or check AttachSpec.name and "
                    + "AttachSpec.directory", null);
        }
        SocketChannel c;
        try {
            c = SocketChannel.open(StandardProtocolFamily.UNIX);
            c.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            throw new ChannelAttachException(ChannelAttachException.Reason.NOT_LISTENING, "attach to channel '" + spec.name()
                    + "': nobody listens on " + socket + " (" + e
                    + "); the producer that shared it has exited: start it again", e);
        }
        List<MappedBuffer> mapped = new ArrayList<>();
        List<AutoCloseable> allocations = new ArrayList<>();
        boolean ok = false;
        Thread timer = cutOffAfter(c, spec.connectTimeout(), spec.name());
        try {
            AttachProtocol.Accepted a = AttachClient.handshake(c, spec);
            timer.interrupt();
            c.configureBlocking(false); // from here on the heartbeat thread looks for the connection's end without waiting
            Opened o = open(backend, spec, c, a, dir, mapped, allocations, unregister);
            register.accept(o.attachment().consumer());
            o.attachment().startWatch(o.watch());
            Attachment attachment = o.attachment();
            ok = true;
            return attachment;
        } catch (IOException e) {
            throw new ChannelAttachException("attach to channel '" + spec.name() + "' failed: " + (c.isOpen() ? e.toString()
                    : "no answer within AttachSpec.connectTimeout " + spec.connectTimeout()), e);
        } catch (UnsupportedOperationException | io.seqlink.backend.DeviceException e) {
            throw new ChannelAttachException("attach to channel '" + spec.name() + "': device " + spec.device() + " cannot map "
                    + "the channel's shared memory: " + e.getMessage(), e);
        } finally {
            timer.interrupt();
            if (!ok) {
                ExportSeats.closeQuietly(c);
                for (AutoCloseable r : allocations) {
                    try {
                        r.close();
                    } catch (Exception e) {
                        // freeing what a failed attach allocated: the failure is what the caller gets
                    }
                }
                mapped.forEach(MappedBuffer::close);
            }
        }
    }

    /** An attachment put together, and the heartbeat thread to start once its port is registered. */
    private record Opened(Attachment attachment, AttachmentWatch watch) {
    }

    private static Opened open(Backend backend, AttachSpec spec, SocketChannel c, AttachProtocol.Accepted a, Path dir,
            List<MappedBuffer> mapped, List<AutoCloseable> allocations, Consumer<ConsumerPort> unregister) throws IOException {
        if (a.layout() != SharedLayout.LAYOUT_VERSION) {
            throw layoutMismatch(spec, "layout version", SharedLayout.LAYOUT_VERSION, a.layout());
        }
        RingGeometry geometry;
        try {
            geometry = RingGeometry.of(a.slots(), a.slotBytes());
        } catch (IllegalArgumentException e) {
            throw new ChannelAttachException("attach to channel '" + spec.name() + "': the producer announced a ring this runtime "
                    + "cannot hold: " + e.getMessage(), e);
        }
        if (geometry.stride() != a.stride()) {
            throw layoutMismatch(spec, "slot stride", geometry.stride(), a.stride());
        }
        if (a.seat() < 0 || a.seat() >= a.seats() || a.maxBatch() < 1) {
            throw new ChannelAttachException("attach to channel '" + spec.name() + "': the producer announced seat " + a.seat()
                    + " of " + a.seats() + " and max batch " + a.maxBatch());
        }
        SharedLayout layout = new SharedLayout(geometry, a.maxBatch(), a.seats());
        if (layout.regionBytes() != a.regionBytes()) {
            throw layoutMismatch(spec, "region size", layout.regionBytes(), a.regionBytes());
        }
        SharedRegion region = SharedRegion.open(SharedDirectory.region(dir, spec.name()), a.regionBytes());
        checkHeader(spec, region, layout, a);
        Device device = backend.device(spec.device());
        MappedBuffer control = map(device, region, SharedLayout.CONTROL, ControlBlock.BYTES, mapped);
        MappedBuffer ring = map(device, region, layout.ring(), geometry.ringBytes(), mapped);
        MappedBuffer seat = map(device, region, layout.mirror(a.seat()), ConsumerBlock.BYTES, mapped);
        Duration producerStall = Duration.ofNanos(a.stallNanos());
        Duration stall = spec.stallTimeout() != null ? spec.stallTimeout() : producerStall;
        ChannelSpec portSpec = ChannelSpec.builder(spec.name()).producer(spec.device()).consumers(spec.device()).slots(a.slots())
                .slotBytes(a.slotBytes()).maxPublishBatch(a.maxBatch()).readMode(ReadMode.DIRECT).armedRounds(false)
                .stallTimeout(producerStall).hostListeners(spec.device()).build();
        CountDownLatch quiet = new CountDownLatch(1);
        AttachmentState states = new AttachmentState(spec.name(), a.seat(), a.epoch());
        AttachmentLease lease = new AttachmentLease(region, layout, a.seat(), a.epoch(), producerStall, states::seatLost);
        DefaultConsumerPort port = DefaultConsumerPort.attached(backend, portSpec, spec.device(),
                new DefaultConsumerPort.SharedReplica(control, ring, seat), lease, new SharedProducerView(control, ring, geometry,
                        new SharedPublishTimes(region, layout)),
                allocations, quiet::countDown, cause -> states.fail("the consumer's device failed: " + cause.getMessage()));
        long line = layout.seatLine(a.seat());
        region.setRelease(line + SharedLayout.S_PID, ProcessHandle.current().pid());
        Attachment attachment = new Attachment(spec.name(), port, c, allocations, mapped, unregister, quiet, stall, a, states);
        return new Opened(attachment, new AttachmentWatch(region, c, line, a.epoch(), a.heartbeatNanos(), stall.toNanos(),
                states::fail));
    }

    private static void checkHeader(AttachSpec spec, SharedRegion region, SharedLayout layout, AttachProtocol.Accepted a) {
        long[][] expected = {
            {SharedLayout.H_MAGIC, SharedLayout.MAGIC}, {SharedLayout.H_PROTOCOL, SharedLayout.PROTOCOL_VERSION},
            {SharedLayout.H_LAYOUT, SharedLayout.LAYOUT_VERSION}, {SharedLayout.H_SLOTS, a.slots()},
            {SharedLayout.H_SLOT_BYTES, a.slotBytes()}, {SharedLayout.H_STRIDE, a.stride()}, {SharedLayout.H_MAX_BATCH, a.maxBatch()},
            {SharedLayout.H_SEATS, a.seats()}, {SharedLayout.H_REGION_BYTES, layout.regionBytes()}, {SharedLayout.H_READY, 1},
        };
        for (long[] e : expected) {
            long found = region.getAcquire(e[0]);
            if (found != e[1]) {
                throw new ChannelAttachException(ChannelAttachException.Reason.INCOMPATIBLE, "attach to channel '" + spec.name()
                        + "': the region " + region.file
                        + " holds " + found + " at header word " + e[0] + " where " + e[1] + " was due (not the region its "
                        + "producer announced: a producer of another version, or a stale file); restart the producer", null);
            }
        }
        if (region.getVolatile(layout.seatLine(a.seat()) + SharedLayout.S_LIVE) != a.epoch()) {
            throw new ChannelAttachException("attach to channel '" + spec.name() + "': seat " + a.seat() + " was dropped before "
                    + "this process mapped it; attach again");
        }
    }

    private static ChannelAttachException layoutMismatch(AttachSpec spec, String what, long here, long there) {
        return new ChannelAttachException(ChannelAttachException.Reason.INCOMPATIBLE, "attach to channel '" + spec.name()
                + "': the producer's " + what + " is " + there + " where this runtime's is " + here
                + "; run the same seqlink version in both processes", null);
    }

    private static MappedBuffer map(Device device, SharedRegion region, long offset, long bytes, List<MappedBuffer> mapped) {
        MappedBuffer b = device.mapShared(region.mapping(), offset, bytes);
        mapped.add(b);
        return b;
    }

    /** A thread that closes {@code c} once {@code timeout} passed, unless interrupted first: the attach's deadline. */
    private static Thread cutOffAfter(SocketChannel c, Duration timeout, String channel) {
        Thread t = new Thread(() -> {
            try {
                TimeUnit.NANOSECONDS.sleep(timeout.toNanos());
                ExportSeats.closeQuietly(c);
            } catch (InterruptedException e) {
                // the attach finished in time
            }
        }, "seqlink-attach-" + channel + "-deadline");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
