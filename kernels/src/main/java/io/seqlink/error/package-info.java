/**
 * The root of seqlink's exceptions, in a package that imports nothing of seqlink, so every other
 * package can extend it without a package cycle.
 */
@NullMarked
package io.seqlink.error;

import org.jspecify.annotations.NullMarked;
