/**
 * Which transport each producer-consumer link gets: the verifier, its verdicts, and the policies that
 * decide what an unsupported link does.
 */
@NullMarked
package io.seqlink.topology;

import org.jspecify.annotations.NullMarked;
