/** Micrometer meters of the UCX bridges. */
@NullMarked
package io.seqlink.ucx.metrics;

import org.jspecify.annotations.NullMarked;
