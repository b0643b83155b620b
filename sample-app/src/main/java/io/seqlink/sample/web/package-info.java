/**
 * The sample's HTTP API and its error replies.
 */
@NullMarked
package io.seqlink.sample.web;

import org.jspecify.annotations.NullMarked;
