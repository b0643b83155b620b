/**
 * The launcher: one loop per consumer device that watches the host mirrors and launches the consume steps.
 */
@NullMarked
package io.seqlink.launcher;

import org.jspecify.annotations.NullMarked;
