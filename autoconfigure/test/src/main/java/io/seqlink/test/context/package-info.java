/** The @EmulatedSeqlink annotation and the test-context customizer behind it. */
@NullMarked
package io.seqlink.test.context;

import org.jspecify.annotations.NullMarked;
