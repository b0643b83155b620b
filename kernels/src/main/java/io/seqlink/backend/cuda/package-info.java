/**
 * The CUDA backend: the driver API through JCuda, the fat binary's kernels, native parameter blocks.
 * The only package that touches JCuda.
 */
@NullMarked
package io.seqlink.backend.cuda;

import org.jspecify.annotations.NullMarked;
