/**
 * The auto-configuration of seqlink's Micrometer observations (traces through frames).
 */
@NullMarked
package io.seqlink.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
