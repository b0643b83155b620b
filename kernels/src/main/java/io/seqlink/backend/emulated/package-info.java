/**
 * The emulated backend: the same protocol over off-heap memory and ordered command queues, with a
 * simulated topology and fault injection, for machines without a GPU.
 */
@NullMarked
package io.seqlink.backend.emulated;

import org.jspecify.annotations.NullMarked;
