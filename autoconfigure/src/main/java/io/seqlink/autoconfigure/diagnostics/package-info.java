/**
 * Failure analyzers: a startup failure of seqlink explained as the property to change and how.
 */
@NullMarked
package io.seqlink.autoconfigure.diagnostics;

import org.jspecify.annotations.NullMarked;
