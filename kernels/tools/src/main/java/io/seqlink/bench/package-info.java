/**
 * The benchmark harness ({@link io.seqlink.bench.BenchMain}): the source article's schemes, the
 * channel's cycle and throughput against the C++ comparator, fan-out, the pipeline's sync share;
 * Markdown, JSON and SVG reports.
 */
@NullMarked
package io.seqlink.bench;

import org.jspecify.annotations.NullMarked;
