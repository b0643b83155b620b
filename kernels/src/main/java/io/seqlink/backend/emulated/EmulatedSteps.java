package io.seqlink.backend.emulated;

import io.seqlink.layout.RingGeometry;

/** What a channel step shows a user kernel's twin through its handles: the ring it works on and its shape. */
interface EmulatedSteps {

    EmulatedMemory ring();

    RingGeometry geometry();
}
