package io.seqlink.backend.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link HostWaitRelease} on a word of heap memory: the bookkeeping that keeps a stream wait from holding a call that
 * waits for queued work, without a GPU ({@code WaitsReleasedGpuTest} runs the same order against the driver).
 */
class HostWaitReleaseTest {

    /** A word that counts as host memory: raised by compare-and-set, as {@link CudaMappedBuffer#raiseTo} does. */
    static final class HeapWord implements HostWaitRelease.Word {
        final AtomicLong value = new AtomicLong();

        @Override
        public long raiseTo(long offset, long v) {
            return value.getAndAccumulate(v, Math::max);
        }
    }

    private final HostWaitRelease release = new HostWaitRelease();

    @Test
    void aWaitRecordedWhileACallRunsIsReleasedAsItIsRecorded() {
        // the hang's order: a consumer arms (records) after the release pass, while the call waits for queued work;
        // without the release on record the word stayed 0, and on a GPU the call never returned
        HeapWord word = new HeapWord();
        HostWaitRelease.Pending stream = release.pending();
        long seenInTheCall = release.around(List.of(stream), () -> {
            stream.record(word, 0, 5);
            return word.value.get();
        });
        assertThat(seenInTheCall).isEqualTo(5);
        assertThat(stream.released()).isEqualTo(1);
    }

    @Test
    void aPendingWaitIsReleasedBeforeTheCallRuns() {
        HeapWord word = new HeapWord();
        HostWaitRelease.Pending stream = release.pending();
        stream.record(word, 0, 3);
        assertThat(word.value.get()).as("no call runs: the wait stays").isZero();
        long seenInTheCall = release.around(List.of(stream), word.value::get);
        assertThat(seenInTheCall).isEqualTo(3);
        assertThat(stream.released()).isEqualTo(1);
    }

    @Test
    void aWaitRecordedAfterTheCallStaysAndAPassedOneCountsNothing() {
        HeapWord word = new HeapWord();
        HostWaitRelease.Pending stream = release.pending();
        release.around(List.of(stream), () -> null);
        stream.record(word, 0, 2);
        assertThat(word.value.get()).isZero();
        word.value.set(2); // the frame came: the wait passed on its own
        release.around(List.of(stream), () -> null);
        assertThat(stream.released()).as("a raise of a word already there ends no wait").isZero();
        stream.record(null, 0, 9); // a wait on device memory: nothing the host can raise
        release.around(List.of(stream), () -> null);
        assertThat(stream.released()).isZero();
    }

    @Test
    void aWaitIsReleasedOnce() {
        HeapWord word = new HeapWord();
        HostWaitRelease.Pending stream = release.pending();
        stream.record(word, 0, 4);
        release.around(List.of(stream), () -> null);
        word.value.set(0); // were the record kept, a later call would raise the word again
        release.around(List.of(stream), () -> null);
        assertThat(word.value.get()).isZero();
        assertThat(stream.released()).isEqualTo(1);
    }
}
