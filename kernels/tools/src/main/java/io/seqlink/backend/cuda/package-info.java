/**
 * The CUDA benchmarks: {@code CycleBenchmark} (the channel's publish -> consume -> ack cycle at the backend SPI,
 * beside the C++ comparator's, with {@code CycleRig} and {@code ChannelApiCycle}), {@code HandOffBenchmark} (issue
 * 12's naive hand-offs and the floor through the user-kernel API, with {@code HandOffRig} and {@code FloorRows})
 * and {@code LaunchVariantsBenchmark} (the JCuda launch paths); {@code BenchReport}, {@code BenchArgs} and
 * {@code BenchSupport} serve them all. They keep the runtime's package name on purpose: they measure
 * package-private launch internals of the CUDA backend ({@code KernelLaunch}, {@code DeviceContext},
 * {@code CudaStream}), reached as a split package on the class path rather than through a public API made for
 * benchmarks (docs/architecture.md).
 */
@NullMarked
package io.seqlink.backend.cuda;

import org.jspecify.annotations.NullMarked;
