/**
 * The sample's command-line modes without a web server: {@code verify} and {@code bench}.
 */
@NullMarked
package io.seqlink.sample.cli;

import org.jspecify.annotations.NullMarked;
