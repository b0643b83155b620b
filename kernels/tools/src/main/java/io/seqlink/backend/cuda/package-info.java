/**
 * The CUDA benchmarks ({@code CycleBenchmark}, {@code LaunchVariantsBenchmark}). They keep the
 * runtime's package name on purpose: they measure package-private launch internals of the CUDA
 * backend ({@code KernelLaunch}, {@code DeviceContext}, {@code CudaStream}), reached as a split package
 * on the class path rather than through a public API made for two benchmarks (docs/architecture.md).
 */
@NullMarked
package io.seqlink.backend.cuda;

import org.jspecify.annotations.NullMarked;
