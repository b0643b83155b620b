package io.seqlink.backend.emulated;

import io.seqlink.backend.AbstractKernelCall;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.EmulatedKernel;
import io.seqlink.backend.KernelInvocation;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishKernel;
import io.seqlink.layout.ConsumerBlock;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A user kernel bound to an emulated stream: each launch queues the kernel's Java twin with a copy of the
 * arguments (as the CUDA driver copies them at the launch), taken from a pool that grows only while the
 * stream holds more launches of this kernel than ever before, so steady launching allocates nothing.
 * The twin runs in stream order, after an access check of every pointer argument (an unreachable peer
 * faults like an illegal address).
 */
final class EmulatedKernelCall extends AbstractKernelCall implements EmulatedStream.Task {

    private final EmulatedStream stream;
    private final EmulatedDevice device;
    private final EmulatedKernel twin;
    private final KernelParam[] kinds;
    private final long[] values;
    private final Object[] refs;
    private Launch[] pool = new Launch[4];
    private int next;

    EmulatedKernelCall(EmulatedStream stream, KernelModule module, String kernel, KernelParam[] params) {
        super(kernel, stream, params);
        EmulatedKernel twin = module.emulated(kernel);
        if (twin == null) {
            throw new IllegalArgumentException("kernel module '" + module.name() + "' has no Java twin for kernel '" + kernel
                    + "', which the emulated backend runs in its place; register one with KernelModule.builder(...).emulated(\""
                    + kernel + "\", invocation -> ...)");
        }
        this.twin = twin;
        this.stream = stream;
        this.device = stream.emulatedDevice();
        this.kinds = params();
        this.values = new long[kinds.length];
        this.refs = new Object[kinds.length];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = new Launch();
        }
    }

    @Override
    protected void writePointer(int index, Memory memory, long offset) {
        refs[index] = device.own(memory);
        values[index] = offset;
    }

    @Override
    protected void writeU64(int index, long value) {
        values[index] = value;
    }

    @Override
    protected void writeU32(int index, int value) {
        values[index] = value;
    }

    @Override
    protected void writePublishHandles(int index, PublishKernel publish) {
        if (!(publish instanceof EmulatedPublishKernel p) || p.stream() != stream) {
            throw otherStream("publish", publish);
        }
        if (p.pushes()) {
            throw pushConsumers();
        }
        refs[index] = p;
    }

    @Override
    protected void writeConsumeHandles(int index, ConsumeKernel consume) {
        if (!(consume instanceof EmulatedConsumeKernel c) || c.stream() != stream) {
            throw otherStream("consume", consume);
        }
        refs[index] = c;
    }

    @Override
    protected void enqueue(int blocks, int threads) {
        Launch launch = take();
        System.arraycopy(values, 0, launch.values, 0, values.length);
        System.arraycopy(refs, 0, launch.refs, 0, refs.length);
        launch.blocks = blocks;
        launch.threads = threads;
        launch.queued = true;
        try {
            stream.enqueue(this, launch, null, null, 0, 0, 0, 0, 0, 0);
        } catch (RuntimeException ex) {
            launch.queued = false;
            throw ex;
        }
    }

    /** A free launch record: the next that its stream has run, or a new one when all are queued. */
    private Launch take() {
        for (int i = 0; i < pool.length; i++) {
            Launch l = pool[(next + i) % pool.length];
            if (!l.queued) {
                next = (next + i + 1) % pool.length;
                return l;
            }
        }
        Launch[] grown = new Launch[pool.length * 2];
        System.arraycopy(pool, 0, grown, 0, pool.length);
        for (int i = pool.length; i < grown.length; i++) {
            grown[i] = new Launch();
        }
        next = pool.length + 1;
        pool = grown;
        return grown[next - 1];
    }

    @Override
    public void run(EmulatedStream.Command c) {
        Launch launch = (Launch) EmulatedStream.Command.held(c.r0);
        try {
            device.beforeLaunch(kernel());
            for (int i = 0; i < kinds.length; i++) {
                if (kinds[i] == KernelParam.POINTER) {
                    device.access((EmulatedMemory) launch.refs[i], kernel());
                }
            }
            launch.begin();
            twin.run(launch);
            launch.acknowledgeAtEnd();
        } finally {
            launch.queued = false;
        }
    }

    /** One queued launch: the arguments as they were at the launch, and the twin's view of them. */
    private final class Launch implements KernelInvocation {

        final long[] values = new long[kinds.length];
        final Object[] refs = new Object[kinds.length];
        /** Per CONSUME_HANDLES argument: the grid's one acquired publish_seq (-1: not read yet in this launch). */
        final long[] acquired = new long[kinds.length];
        /** Per CONSUME_HANDLES argument: takeRound's bound (the acquired value, or from - 1 for a cancelled armed round). */
        final long[] bound = new long[kinds.length];
        /** Per CONSUME_HANDLES argument: the smallest sequence acknowledged in this launch (-1: none). */
        final long[] acknowledged = new long[kinds.length];
        /** Per CONSUME_HANDLES argument: takeRound's first, end, last and round (-1: not called), and whether armed. */
        final long[] roundFrom = new long[kinds.length];
        final long[] roundEnd = new long[kinds.length];
        final long[] roundTo = new long[kinds.length];
        final long[] roundNumber = new long[kinds.length];
        final boolean[] roundArmed = new boolean[kinds.length];
        /** Per CONSUME_HANDLES argument: whether endRound was called in this launch. */
        final boolean[] roundEnded = new boolean[kinds.length];
        /** acknowledgeTaken's descriptor and acknowledgement arguments in this launch (-1: not called). */
        int takenDescriptor;
        int takenAcknowledgement;
        int blocks;
        int threads;
        volatile boolean queued;

        /** Before the twin runs: no read and no acknowledgement made yet in this launch. */
        void begin() {
            Arrays.fill(acquired, -1);
            Arrays.fill(acknowledged, -1);
            Arrays.fill(roundFrom, -1);
            Arrays.fill(roundEnded, false);
            takenDescriptor = -1;
            takenAcknowledgement = -1;
        }

        /** After the twin ran: each consumer's acknowledgement, the smallest it was given, once (the header's last block). */
        void acknowledgeAtEnd() {
            for (int i = 0; i < kinds.length; i++) {
                if (acknowledged[i] >= 0) {
                    ((EmulatedConsumeKernel) refs[i]).acknowledge(acknowledged[i]);
                }
                if (roundEnded[i]) { // end_round: the last block finishes the round as the consume step does
                    ((EmulatedConsumeKernel) refs[i]).endRound(roundFrom[i], roundEnd[i], roundTo[i], bound[i], roundNumber[i],
                            roundArmed[i]);
                }
            }
            if (takenDescriptor >= 0) { // acknowledge_taken_at_end: READY_TO in stream order, one release store
                long readyTo = ((EmulatedMemory) refs[takenDescriptor]).getPlainWord(values[takenDescriptor] + ConsumerBlock.READY_TO);
                ((EmulatedMemory) refs[takenAcknowledgement]).setReleaseWord(values[takenAcknowledgement] + ConsumerBlock.CONSUMED_SEQ,
                        readyTo);
            }
        }

        @Override
        public String kernel() {
            return EmulatedKernelCall.this.kernel();
        }

        @Override
        public int blocks() {
            return blocks;
        }

        @Override
        public int threads() {
            return threads;
        }

        @Override
        public ByteBuffer memory(int index) {
            return ((EmulatedMemory) ref(index, KernelParam.POINTER)).buffer;
        }

        @Override
        public int offset(int index) {
            ref(index, KernelParam.POINTER);
            return (int) values[index];
        }

        @Override
        public long u64(int index) {
            return value(index, KernelParam.U64);
        }

        @Override
        public int u32(int index) {
            return (int) value(index, KernelParam.U32);
        }

        @Override
        public float f32(int index) {
            return Float.intBitsToFloat((int) value(index, KernelParam.F32));
        }

        @Override
        public double f64(int index) {
            return Double.longBitsToDouble(value(index, KernelParam.F64));
        }

        @Override
        public ByteBuffer ring(int index) {
            return handles(index).ring().buffer;
        }

        @Override
        public int slotOffset(int index, long sequence) {
            return (int) handles(index).geometry().offsetOf(sequence);
        }

        @Override
        public long firstUnpublished(int index) {
            return ((EmulatedPublishKernel) ref(index, KernelParam.PUBLISH_HANDLES)).firstUnpublished();
        }

        @Override
        public void publishAtEnd(int index, int count) {
            ((EmulatedPublishKernel) ref(index, KernelParam.PUBLISH_HANDLES)).publishAtEnd(count, kernel());
        }

        @Override
        public long acquirePublished(int index) {
            EmulatedConsumeKernel consume = (EmulatedConsumeKernel) ref(index, KernelParam.CONSUME_HANDLES);
            if (acquired[index] < 0) { // the one acquire read of the launch; every later call is another block
                acquired[index] = consume.acquirePublished(kernel());
            }
            return acquired[index];
        }

        @Override
        public void acknowledge(int index, long sequence) {
            ref(index, KernelParam.CONSUME_HANDLES);
            if (sequence < 0) {
                throw new IllegalArgumentException("kernel '" + kernel() + "': acknowledged sequence " + sequence
                        + " is negative; pass at most what acquirePublished returned");
            }
            acknowledged[index] = acknowledged[index] < 0 ? sequence : Math.min(acknowledged[index], sequence);
        }

        @Override
        public void acknowledgeTaken(int descriptor, int acknowledgement) {
            ref(descriptor, KernelParam.POINTER);
            if (!(ref(acknowledgement, KernelParam.POINTER) instanceof EmulatedMappedBuffer)) {
                throw new IllegalArgumentException("kernel '" + kernel() + "': parameter " + acknowledgement
                        + " is not an acknowledgement word; pass DeviceFrames.acknowledgement() at offset 0");
            }
            takenDescriptor = descriptor;
            takenAcknowledgement = acknowledgement;
        }

        @Override
        public long takeRound(int index, long from, long to, long round, boolean armed) {
            long published = acquirePublished(index);
            if (from < 1 || to < from - 1 || round < 1) {
                throw new IllegalArgumentException("kernel '" + kernel() + "': takeRound(" + index + ", " + from + ", " + to + ", "
                        + round + ", " + armed + ") is no round; pass DeviceFrames.first(), last(), round() and armed()");
            }
            EmulatedConsumeKernel consume = (EmulatedConsumeKernel) refs[index];
            bound[index] = consume.roundBound(from, published, round, armed); // the host's cancel word, after the acquire
            roundFrom[index] = from;
            roundEnd[index] = Math.min(to, bound[index]);
            roundTo[index] = to;
            roundNumber[index] = round;
            roundArmed[index] = armed;
            return roundEnd[index];
        }

        @Override
        public void endRound(int index) {
            ref(index, KernelParam.CONSUME_HANDLES);
            if (roundFrom[index] < 0) {
                throw new IllegalArgumentException("kernel '" + kernel() + "': endRound(" + index + ") before takeRound("
                        + index + ", ...); a round kernel begins with takeRound");
            }
            roundEnded[index] = true;
        }

        private EmulatedSteps handles(int index) {
            if (index >= 0 && index < kinds.length && kinds[index] == KernelParam.CONSUME_HANDLES) {
                return (EmulatedSteps) refs[index];
            }
            return (EmulatedSteps) ref(index, KernelParam.PUBLISH_HANDLES);
        }

        private long value(int index, KernelParam kind) {
            check(index, kind);
            return values[index];
        }

        private Object ref(int index, KernelParam kind) {
            check(index, kind);
            return refs[index];
        }

        private void check(int index, KernelParam kind) {
            if (index < 0 || index >= kinds.length || kinds[index] != kind) {
                throw new IllegalArgumentException("kernel '" + kernel() + "': parameter " + index + " is "
                        + (index < 0 || index >= kinds.length ? "not declared" : "declared " + kinds[index]) + ", not " + kind);
            }
        }
    }
}
