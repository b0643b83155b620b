/**
 * The byte layouts shared with the kernels: control block, consumer block, slot header, ring geometry.
 */
@NullMarked
package io.seqlink.layout;

import org.jspecify.annotations.NullMarked;
