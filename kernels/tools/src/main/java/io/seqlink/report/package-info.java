/**
 * What the tools' reports share: JSON through Jackson, latency histograms through HdrHistogram,
 * percentiles as one record.
 */
@NullMarked
package io.seqlink.report;

import org.jspecify.annotations.NullMarked;
