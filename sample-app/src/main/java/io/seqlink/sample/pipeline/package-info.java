/**
 * The sample pipeline: device 0 prepares frames, the other devices run inference on them and send
 * results back, a collector checks every result.
 */
@NullMarked
package io.seqlink.sample.pipeline;

import org.jspecify.annotations.NullMarked;
