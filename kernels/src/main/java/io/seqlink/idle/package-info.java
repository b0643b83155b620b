/**
 * How a launcher thread waits for work: spin, yield, park, or a backoff through all three.
 */
@NullMarked
package io.seqlink.idle;

import org.jspecify.annotations.NullMarked;
