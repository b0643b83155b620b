package io.seqlink.channel.shared;

import io.seqlink.backend.Device;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PublishBinding;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.error.SeqlinkException;
import io.seqlink.security.PeerChallenge;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel shared with consumer processes of this host, its producer's side: the region file whose control block and
 * ring the consumer processes read (the channel's own ring and host mirror, {@link #control} and {@link #ring}, or a
 * replica its publish step pushes every frame into, {@link #pushTarget}), the socket consumer processes attach through,
 * the seats whose acknowledgements gate the producer ({@link #slowestAcknowledged}), and the heartbeat thread that drops
 * dead consumers. Made by the channel as it opens, before its producer's memory and its publish step; closed with the
 * channel's memory, after its streams (the region's parts stay mapped until then).
 *
 * <p>Every method is safe from any thread.
 */
public final class ChannelExport implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChannelExport.class);

    private final String channel;
    private final SharedRegion region;
    private final Path socket;
    private final ExportSeats seats;
    private final AttachServer server;
    private final ExportLiveness liveness;
    private final List<MappedBuffer> mapped = new ArrayList<>();
    private final MappedBuffer control;
    private final MappedBuffer ring;
    private final SharedPublishTimes publishTimes;
    private volatile boolean closed;

    private ChannelExport(ChannelSpec spec, ChannelShare share, Device producer, LongSupplier published, Path dir) throws IOException {
        this.channel = spec.name();
        SharedLayout layout = new SharedLayout(spec.geometry(), spec.maxPublishBatch(), share.seats());
        Path regionFile = SharedDirectory.region(dir, channel);
        this.socket = SharedDirectory.socket(dir, channel);
        if (socket.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > SharedDirectory.MAX_SOCKET_PATH) {
            throw new IOException("the socket path " + socket + " is longer than a Unix socket path may be ("
                    + SharedDirectory.MAX_SOCKET_PATH + " bytes); use a shorter ChannelShare directory");
        }
        clearStale(regionFile);
        this.region = SharedRegion.create(regionFile, layout);
        ServerSocketChannel listening = null;
        boolean ok = false;
        try {
            writeHeader(layout);
            this.control = map(producer, SharedLayout.CONTROL, io.seqlink.layout.ControlBlock.BYTES);
            this.ring = map(producer, layout.ring(), layout.geometry().ringBytes());
            this.publishTimes = new SharedPublishTimes(region, layout);
            this.seats = new ExportSeats(channel, region, layout, published);
            listening = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            listening.bind(UnixDomainSocketAddress.of(socket));
            SharedDirectory.ownerOnly(socket);
            long stallNanos = spec.stallTimeout().toNanos();
            long heartbeatNanos = share.heartbeatFor(spec.stallTimeout()).toNanos();
            this.server = new AttachServer(channel, listening, new PeerChallenge(share.secret()), region, layout, seats,
                    share.handshakeTimeout().toNanos(), stallNanos, heartbeatNanos);
            this.liveness = new ExportLiveness(region, seats, server, heartbeatNanos, stallNanos);
            region.setRelease(SharedLayout.L_STATE, SharedLayout.STATE_OPEN);
            region.setRelease(SharedLayout.H_READY, 1);
            start(server, "seqlink-share-" + channel + "-attach");
            start(liveness, "seqlink-share-" + channel + "-heartbeat");
            ok = true;
        } finally {
            if (!ok) {
                ExportSeats.closeQuietly(listening);
                mapped.forEach(MappedBuffer::close);
                Files.deleteIfExists(socket);
                Files.deleteIfExists(regionFile);
            }
        }
        log.info("seqlink channel '{}' shared: {} ({} seats), attach socket {}", channel, regionFile, share.seats(), socket);
        if (!PeerUser.available()) {
            log.warn("seqlink channel '{}': this Java runtime has no module jdk.net, so the producer cannot read an attaching "
                    + "process's user (SO_PEERCRED); the directory's 0700 and the socket's 0600 still keep other users out. "
                    + "Add jdk.net to the runtime (jlink --add-modules jdk.net) for the extra check", channel);
        }
    }

    /**
     * Exports {@code spec}'s channel as its {@link ChannelSpec#share()} says, mapping the region for {@code producer};
     * {@code published} is the producer's count of published frames (read when a seat is taken, and as the gating
     * bound while no seat is live). Fails naming {@code ChannelShare} and the fix, having changed nothing. Called by the
     * channel's opening thread; the export's own threads start before it returns.
     */
    public static ChannelExport open(ChannelSpec spec, Device producer, LongSupplier published) {
        ChannelShare share = Objects.requireNonNull(spec.share(), "a shared channel's spec");
        try {
            Path dir = SharedDirectory.prepare(share.directory(), "ChannelShare.directory");
            return new ChannelExport(spec, share, producer, published, dir);
        } catch (IOException | UnsupportedOperationException e) {
            throw new SeqlinkException("channel '" + spec.name() + "' cannot be shared (ChannelSpec.Builder.share): "
                    + e.getMessage(), e);
        }
    }

    /**
     * The bytes of the region sharing {@code spec} creates: the file both processes map, and, on the CUDA backend, what
     * the producer device pins (registers with the driver, whole) to address its control block and ring. Any thread.
     */
    public static long regionBytes(ChannelSpec spec) {
        ChannelShare share = Objects.requireNonNull(spec.share(), "a shared channel's spec");
        return new SharedLayout(spec.geometry(), spec.maxPublishBatch(), share.seats()).regionBytes();
    }

    /**
     * Records {@code nanos} as the publish time of frames {@code first .. first + count - 1} in the region, where the
     * consumer processes' ports read it; the channel's publishing thread only.
     */
    public void recordPublishTimes(long first, int count, long nanos) {
        publishTimes.record(first, count, nanos);
    }

    /** When {@code sequence} was published, as the region records it; 0 if unknown. Any thread. */
    public long publishTime(long sequence) {
        return publishTimes.of(sequence);
    }

    /** Leftovers of a producer of this name that died: removed; a live one: refused. */
    private void clearStale(Path regionFile) throws IOException {
        if (Files.exists(socket)) {
            boolean answers;
            try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
                answers = true;
            } catch (IOException e) {
                answers = false; // nobody listens: a producer that died left it
            }
            if (answers) {
                throw new IOException("channel '" + channel + "' is already shared by a live process (its socket " + socket
                        + " answers); give this channel another name or stop that process");
            }
            Files.delete(socket);
        }
        if (Files.deleteIfExists(regionFile)) {
            log.info("seqlink channel '{}': removed the region {} a producer that died left", channel, regionFile);
        }
    }

    private void writeHeader(SharedLayout layout) {
        region.setRelease(SharedLayout.H_MAGIC, SharedLayout.MAGIC);
        region.setRelease(SharedLayout.H_PROTOCOL, SharedLayout.PROTOCOL_VERSION);
        region.setRelease(SharedLayout.H_LAYOUT, SharedLayout.LAYOUT_VERSION);
        region.setRelease(SharedLayout.H_SLOTS, layout.geometry().slots());
        region.setRelease(SharedLayout.H_SLOT_BYTES, layout.geometry().slotBytes());
        region.setRelease(SharedLayout.H_STRIDE, layout.geometry().stride());
        region.setRelease(SharedLayout.H_MAX_BATCH, layout.maxBatch());
        region.setRelease(SharedLayout.H_SEATS, layout.seats());
        region.setRelease(SharedLayout.H_REGION_BYTES, layout.regionBytes());
        region.setRelease(SharedLayout.H_PRODUCER_PID, ProcessHandle.current().pid());
    }

    private MappedBuffer map(Device device, long offset, long bytes) {
        MappedBuffer b = device.mapShared(region.mapping(), offset, bytes);
        mapped.add(b);
        return b;
    }

    private static void start(Runnable task, String name) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
    }

    /**
     * The region's control block, mapped for the producer device: what the consumer processes acquire
     * {@code publish_seq} from, so the word the publish step stores last (the channel's host mirror, or a replica's
     * {@code publish_seq}). Any thread.
     */
    public MappedBuffer control() {
        return control;
    }

    /**
     * The region's ring, mapped for the producer device, of the channel's geometry: the slots the consumer processes
     * read in place (the channel's ring itself, or a replica of it). Any thread.
     */
    public MappedBuffer ring() {
        return ring;
    }

    /**
     * The region's control block and ring as a replica the channel's publish step pushes every frame into, for a
     * channel whose ring is elsewhere (in device memory). Any thread; a new value each call.
     */
    public PublishBinding.PushTarget pushTarget() {
        return new PublishBinding.PushTarget(control, ring);
    }

    /**
     * The slowest acknowledgement over the attached consumer processes, or the producer's published count when none is
     * attached. Any thread; never waits.
     */
    public long slowestAcknowledged() {
        return seats.slowestAcknowledged();
    }

    /** The consumer processes attached now, by seat. Any thread. */
    public List<io.seqlink.channel.AttachedConsumer> attachedConsumers() {
        return seats.attached(liveness::heartbeatAgeNanos);
    }

    /** Consumer processes attached now. Any thread. */
    public int attached() {
        return seats.live();
    }

    /** Where consumer processes attach: the socket's path. Any thread. */
    public Path socket() {
        return socket;
    }

    /**
     * Ends the share: the region says closed, every connection is closed (the consumers see it and fail; their seats keep
     * their epochs, as nothing is written into the region from here on), the threads end and both files are removed.
     * Idempotent; any thread. Consumers' mappings stay valid until they close them.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        region.setRelease(SharedLayout.L_STATE, SharedLayout.STATE_CLOSED);
        server.close();
        liveness.close();
        seats.closeAll();
        mapped.forEach(MappedBuffer::close);
        try {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(region.file);
        } catch (IOException e) {
            log.warn("seqlink channel '{}': removing {} or {} failed: {}", channel, socket, region.file, e.toString());
        }
    }
}
