/**
 * How a launcher thread waits for work: spin, yield, park, or a back-off through all three, by name
 * ({@link io.seqlink.idle.IdleStrategyKind}); the strategies are Agrona's.
 */
@NullMarked
package io.seqlink.idle;

import org.jspecify.annotations.NullMarked;
