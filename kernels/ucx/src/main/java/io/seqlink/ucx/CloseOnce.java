package io.seqlink.ucx;

import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** A bridge's close as one atomic transition: the first caller closes, every caller gets the first report. */
final class CloseOnce {

    private volatile @Nullable BridgeCloseReport report;

    synchronized BridgeCloseReport close(Supplier<BridgeCloseReport> closer) {
        BridgeCloseReport done = report;
        if (done == null) {
            done = closer.get();
            report = done;
        }
        return done;
    }
}
