package io.seqlink.backend.cuda;

import io.seqlink.bench.BenchWork;

import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.report.LatencyHistogram;
import io.seqlink.report.Percentiles;
import io.seqlink.report.ReportJson;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.CUgraph;
import jcuda.driver.CUgraphExec;
import jcuda.driver.CUstream;
import jcuda.driver.CUstreamCaptureMode;
import jcuda.driver.JCudaDriver;

/**
 * Measures the ways a Java thread can put work on a CUDA stream through JCuda, to pick the channel
 * kernels' launch path (field notes: parameter marshalling costs about 5 µs per launch). Each variant
 * enqueues {@code --launches} operations back to back, then synchronises:
 * <ul>
 *   <li>{@code host_us}: the enqueue loop's time per operation (the calling thread's cost);</li>
 *   <li>{@code rate_us}: loop plus synchronise, per operation (what a pipeline sustains);</li>
 *   <li>{@code alloc_bytes}: Java bytes allocated per operation.</li>
 * </ul>
 * Variants: a 5-parameter kernel with fresh parameter objects per launch; with reused parameter
 * objects; with parameters in direct buffers; with seqlink's native parameter block (the channel's
 * path); a kernel without parameters; a captured graph of the 5-parameter launch; {@code
 * cuStreamWriteValue64}; a 64-byte {@code cuMemcpyAsync}. Then launch-to-completion latency (p50/p99) of
 * the native block and of the parameterless kernel.
 *
 * <pre>java -cp ... io.seqlink.backend.cuda.LaunchVariantsBenchmark [--launches N] [--device D]</pre>
 */
public final class LaunchVariantsBenchmark {

    private LaunchVariantsBenchmark() {
    }

    @FunctionalInterface
    private interface Op {
        void run(long i);
    }

    public static void main(String[] args) {
        int launches = 20000;
        int device = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--launches" -> launches = (int) BenchArgs.parseLong(args[i], args[i + 1]);
                case "--device" -> device = (int) BenchArgs.parseLong(args[i], args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
        }
        CudaBackendProvider provider = new CudaBackendProvider();
        if (!provider.detect().usable()) {
            System.err.println("LaunchVariantsBenchmark: no usable CUDA driver: " + provider.detect().summary());
            System.exit(2);
        }
        List<Object> rows = new ArrayList<>();
        try (Backend backend = provider.open()) {
            CudaDevice d = (CudaDevice) backend.device(device);
            DeviceContext ctx = d.context();
            CudaStream stream = (CudaStream) d.newStream("launch-variants");
            CUstream s = stream.handle();
            CUfunction noop5 = ctx.userFunction(BenchWork.MODULE, "bench_noop5");
            CUfunction noop = ctx.userFunction(BenchWork.MODULE, "bench_noop");
            DeviceBuffer target = d.allocate(4096);
            MappedBuffer mapped = d.allocateMapped(4096);
            ctx.bind();

            // (a) fresh parameter objects per launch: the straightforward JCuda style
            rows.add(measure("jcuda-param-objects-fresh", launches, stream, i -> check(JCudaDriver.cuLaunchKernel(noop5,
                    1, 1, 1, 1, 1, 1, 0, s, Pointer.to(Pointer.to(new long[] {i}), Pointer.to(new long[] {2}),
                            Pointer.to(new long[] {3}), Pointer.to(new long[] {4}), Pointer.to(new long[] {5})), null))));
            // (b) the same objects reused every launch
            long[] a0 = {1};
            Pointer reused = Pointer.to(Pointer.to(a0), Pointer.to(new long[] {2}), Pointer.to(new long[] {3}),
                    Pointer.to(new long[] {4}), Pointer.to(new long[] {5}));
            rows.add(measure("jcuda-param-objects-reused", launches, stream, i -> {
                a0[0] = i;
                check(JCudaDriver.cuLaunchKernel(noop5, 1, 1, 1, 1, 1, 1, 0, s, reused, null));
            }));
            // (c) parameter values in direct buffers
            ByteBuffer[] bufs = new ByteBuffer[5];
            Pointer[] ps = new Pointer[5];
            for (int k = 0; k < 5; k++) {
                bufs[k] = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
                bufs[k].putLong(0, k + 1);
                ps[k] = Pointer.to(bufs[k]);
            }
            Pointer direct = Pointer.to(ps);
            rows.add(measure("jcuda-direct-buffers", launches, stream, i -> {
                bufs[0].putLong(0, i);
                check(JCudaDriver.cuLaunchKernel(noop5, 1, 1, 1, 1, 1, 1, 0, s, direct, null));
            }));
            // (d) seqlink's native parameter block: one pointer whose address is a native void*[]
            KernelLaunch block = new KernelLaunch(ctx, "bench_noop5", noop5, 8, 8, 8, 8, 8);
            for (int k = 1; k < 5; k++) {
                block.params.putLong(k, k + 1);
            }
            rows.add(measure("native-param-block", launches, stream, i -> {
                block.params.putLong(0, i);
                block.launch(s, 1, 1);
            }));
            // (e) no parameters at all: the floor of a JCuda launch
            rows.add(measure("no-params", launches, stream, i -> check(JCudaDriver.cuLaunchKernel(noop, 1, 1, 1, 1, 1, 1, 0, s,
                    null, null))));
            // (f) a graph holding the 5-parameter launch
            CUgraph graph = new CUgraph();
            CUgraphExec exec = new CUgraphExec();
            check(JCudaDriver.cuStreamBeginCapture(s, CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
            block.launch(s, 1, 1);
            check(JCudaDriver.cuStreamEndCapture(s, graph));
            check(JCudaDriver.cuGraphInstantiate(exec, graph, 0));
            rows.add(measure("graph-launch", launches, stream, i -> check(JCudaDriver.cuGraphLaunch(exec, s))));
            // (g) a stream write of one word, (h) a small copy: the other per-frame operations
            rows.add(measure("stream-write-value64", launches, stream, i -> stream.writeValue(mapped, 0, i)));
            rows.add(measure("memcpy-async-64B", launches, stream, i -> stream.copy(mapped, 64, target, 0, 64)));

            rows.add(latency("latency-native-param-block", 2000, stream, i -> {
                block.params.putLong(0, i);
                block.launch(s, 1, 1);
            }));
            rows.add(latency("latency-no-params", 2000, stream, i -> check(JCudaDriver.cuLaunchKernel(noop, 1, 1, 1, 1, 1, 1, 0, s,
                    null, null))));
            JCudaDriver.cuGraphExecDestroy(exec);
            JCudaDriver.cuGraphDestroy(graph);
            stream.synchronize();
            block.release();
            stream.close();
            target.close();
            mapped.close();
            Document document = new Document("seqlink-launch-variants", backend.description(), launches, rows);
            System.out.print(ReportJson.writeSnakeCase(document));
        }
    }

    private static void check(int result) {
        if (result != 0) {
            throw Cu.error(result, "launch variant", -1, null);
        }
    }

    /** The JSON document: one {@link Measured} per variant, then the {@link Latency} rows. */
    record Document(String tool, String device, int launches, List<Object> results) {
    }

    /** Per operation: the enqueue loop's time, loop plus synchronise, Java bytes allocated. */
    record Measured(String variant, double hostUs, double rateUs, double allocBytes) {
    }

    /** Launch-to-completion latency of one variant. */
    record Latency(String variant, Percentiles launchToDoneUs) {
    }

    private static Measured measure(String name, int n, CudaStream stream, Op op) {
        double bestHost = Double.MAX_VALUE;
        double bestRate = Double.MAX_VALUE;
        double alloc = 0;
        for (int rep = 0; rep < 4; rep++) {
            stream.synchronize();
            long a0 = BenchSupport.allocatedBytes();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                op.run(i + 1000L);
            }
            long t1 = System.nanoTime();
            stream.synchronize();
            long t2 = System.nanoTime();
            long a1 = BenchSupport.allocatedBytes();
            if (rep > 0) { // the first repetition warms up JIT and driver
                bestHost = Math.min(bestHost, (t1 - t0) / 1e3 / n);
                bestRate = Math.min(bestRate, (t2 - t0) / 1e3 / n);
                alloc = (a1 - a0) / (double) n;
            }
        }
        Measured row = new Measured(name, bestHost, bestRate, alloc);
        System.err.println("LaunchVariantsBenchmark: " + ReportJson.writeSnakeCaseLine(row));
        return row;
    }

    private static Latency latency(String name, int n, CudaStream stream, Op op) {
        LatencyHistogram lat = new LatencyHistogram();
        for (int i = -200; i < n; i++) {
            long t0 = System.nanoTime();
            op.run(i + 5000L);
            stream.synchronize();
            if (i >= 0) {
                lat.record(System.nanoTime() - t0);
            }
        }
        Latency row = new Latency(name, lat.percentiles());
        System.err.println("LaunchVariantsBenchmark: " + ReportJson.writeSnakeCaseLine(row));
        return row;
    }

}
