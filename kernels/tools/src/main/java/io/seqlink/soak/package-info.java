/**
 * The soak runner ({@link io.seqlink.soak.SoakMain}): one producer, N consumers, random stalls and
 * pauses, every frame checked, memory sampled over the run.
 */
@NullMarked
package io.seqlink.soak;

import org.jspecify.annotations.NullMarked;
