/**
 * The auto-configuration of seqlink's Micrometer meters.
 */
@NullMarked
package io.seqlink.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
