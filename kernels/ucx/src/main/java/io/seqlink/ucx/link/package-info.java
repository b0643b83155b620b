/**
 * The link protocol under the bridges: registered regions and their layout, the handshake, the send
 * window, and the two link threads that own a UCX worker each.
 */
@NullMarked
package io.seqlink.ucx.link;

import org.jspecify.annotations.NullMarked;
