/**
 * The sample's preprocessing and inference stages as two processes ({@code split-producer} and
 * {@code split-consumer} profiles): the producer service shares channel {@code frames}, the inference service
 * attaches to it.
 */
@NullMarked
package io.seqlink.sample.split;

import org.jspecify.annotations.NullMarked;
