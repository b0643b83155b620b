package io.seqlink.backend.cuda;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.MappedBuffer;
import java.nio.ByteBuffer;
import jcuda.driver.CUstream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Up to {@link #CAPACITY} 64-bit word writes a stream runs as ONE driver operation ({@code cuStreamBatchMemOp}). Each
 * write is a {@code CU_STREAM_MEM_OP_WRITE_VALUE_64} with the default flags, so it has {@code cuStreamWriteValue64}'s
 * ordering: it runs after all earlier work on the stream, behind a memory barrier (everything earlier work and the
 * batch's earlier writes wrote is visible before the word is; the driver's "similar to {@code __threadfence_system()},
 * scoped to the stream"); the driver enqueues the batch's operations in the array's order.
 *
 * <p>Why one operation: each write issued alone costs the critical path about 1.1 µs after a kernel, and six of them
 * (a publish) cost more than the publish kernel saves; as one batch, six cost what one or two do (the comparator's
 * memop rows, benchmarks.md "What a publish step after the fill can cost at best").
 *
 * <p>JCuda 12.6 binds {@code cuStreamBatchMemOp}, but its {@code CUstreamBatchMemOpParams} has no fields, so no
 * operation can be described through it: the function is bound here through JNA's direct mapping (its {@code _v2}
 * entry point, the one CUDA 12 and 13 headers resolve the name to), with primitive arguments only (no allocation per
 * call). The operations live in one pinned parameter block of the context's {@link ParamArena}, filled in place. When
 * JNA or the entry point is missing, {@link #unavailable()} says why and the caller keeps its kernel.
 *
 * <p>A batch is handed out only once it has shown on its stream that its writes land ({@link #proven}): the operation
 * layout is the driver's C union, which nothing but the driver checks.
 *
 * <p>Not thread-safe: its owner fills and issues it under its own lock.
 */
final class StreamWriteBatch {

    private static final Logger log = LoggerFactory.getLogger(StreamWriteBatch.class);
    /** What the proof writes: a value per word no memory holds by chance. */
    private static final long PROOF_PATTERN = 0x5e91_1a4b_0000_0000L;
    private static final int PROOF_WORDS = 3;

    /** Bytes of one {@code CUstreamBatchMemOpParams} (a union padded to six 64-bit words). */
    static final int OP_BYTES = 48;
    /** The writes one batch holds: as many operations as one parameter block has room for. */
    static final int CAPACITY = ParamArena.BLOCK_BYTES / OP_BYTES;
    // CUstreamMemOpWriteValueParams_st: operation (enum, 4 bytes), address at 8, value64 at 16, flags at 24, alias at 32
    private static final int OPERATION = 0;
    private static final int ADDRESS = 8;
    private static final int VALUE = 16;
    private static final int FLAGS = 24;
    private static final int CU_STREAM_MEM_OP_WRITE_VALUE_64 = 5;
    private static final int CU_STREAM_WRITE_VALUE_DEFAULT = 0;

    private final DeviceContext context;
    private final ParamBlock operations;
    private final ByteBuffer view;
    private int count;

    /**
     * A batch for {@code stream}, once it proved there that its writes land: {@value #PROOF_WORDS} words of pinned memory
     * written by one batch, read back after the stream synchronised. {@code null} when the entry point is missing or the
     * proof failed (a driver error, or a word that did not land), the reason logged: the caller keeps its kernel. The
     * caller's thread, at a bind (it synchronises the stream).
     */
    static @Nullable StreamWriteBatch proven(CudaStream stream) {
        String why = unavailable();
        if (why != null) {
            log.debug("seqlink cuda: stream '{}' publishes with its kernel: cuStreamBatchMemOp is not bound ({})", stream.name(), why);
            return null;
        }
        StreamWriteBatch batch = new StreamWriteBatch(stream.context());
        try (MappedBuffer proof = stream.cudaDevice().allocateMapped(8L * PROOF_WORDS)) {
            long base = stream.backend().own(proof, "proof").at(0, 8L * PROOF_WORDS, "proof");
            for (int i = 0; i < PROOF_WORDS; i++) {
                proof.setRelease(8L * i, 0);
                batch.add(base + 8L * i, PROOF_PATTERN + i);
            }
            batch.enqueue(stream.handle(), stream.name());
            stream.synchronize();
            for (int i = 0; i < PROOF_WORDS; i++) {
                long landed = proof.getAcquire(8L * i);
                if (landed != PROOF_PATTERN + i) {
                    log.warn("seqlink cuda: stream '{}' publishes with its kernel: a batch of stream writes wrote {} into word {} "
                            + "instead of {}", stream.name(), landed, i, PROOF_PATTERN + i);
                    batch.release();
                    return null;
                }
            }
            return batch;
        } catch (DeviceException ex) {
            if (ex.sticky()) {
                batch.release();
                throw ex;
            }
            log.warn("seqlink cuda: stream '{}' publishes with its kernel: a batch of stream writes failed ({})", stream.name(),
                    ex.getMessage());
            batch.release();
            return null;
        }
    }

    /** Takes a parameter block of {@code context} for the operations; {@link #unavailable()} must be null. */
    private StreamWriteBatch(DeviceContext context) {
        String why = unavailable();
        if (why != null) {
            throw new IllegalStateException("cuStreamBatchMemOp is not bound: " + why);
        }
        this.context = context;
        this.operations = context.params().take(); // zeroed: every alias word stays 0
        this.view = operations.view();
    }

    /**
     * Why the driver's batch entry point cannot be called from here, or {@code null} when it can: JNA missing from the
     * class path, its native part not loadable, or a driver without {@code cuStreamBatchMemOp_v2}.
     */
    static @Nullable String unavailable() {
        return Binding.UNAVAILABLE;
    }

    /** Writes still free in this batch. */
    int room() {
        return CAPACITY - count;
    }

    /** Appends the write of {@code value} to the 64-bit word at device address {@code address}. */
    void add(long address, long value) {
        if (count == CAPACITY) {
            throw new IllegalStateException("a stream write batch holds at most " + CAPACITY + " writes");
        }
        int at = count * OP_BYTES;
        view.putInt(at + OPERATION, CU_STREAM_MEM_OP_WRITE_VALUE_64);
        view.putLong(at + ADDRESS, address);
        view.putLong(at + VALUE, value);
        view.putInt(at + FLAGS, CU_STREAM_WRITE_VALUE_DEFAULT);
        count++;
    }

    /**
     * Enqueues the writes added since the last call on {@code stream} as one operation and empties the batch (also when
     * the driver refuses it). The driver reads the array during the call.
     */
    void enqueue(CUstream stream, String streamName) {
        int n = count;
        count = 0;
        if (n == 0) {
            return;
        }
        context.bind();
        int result = Binding.cuStreamBatchMemOp_v2(NativePointers.address(stream), n, operations.address(), 0);
        if (result != 0) {
            throw Cu.error(result, "cuStreamBatchMemOp", context.ordinal(), n + " writes on stream '" + streamName + "'");
        }
    }

    /** Returns the parameter block to its arena; the batch is unusable afterwards. */
    void release() {
        context.params().give(operations);
    }

    /** The JNA binding, loaded on first use; every JNA type stays in here, so a missing JNA is a reason, not an error. */
    private static final class Binding {

        static final @Nullable String UNAVAILABLE = register();

        private Binding() {
        }

        private static @Nullable String register() {
            try {
                // the driver JCuda already loaded: dlopen of the same soname returns that library
                Native.register(Binding.class, NativeLibrary.getInstance("libcuda.so.1"));
                return null;
            } catch (LinkageError | RuntimeException ex) {
                return ex.toString();
            }
        }

        static native int cuStreamBatchMemOp_v2(long stream, int count, long paramArray, int flags);
    }
}
