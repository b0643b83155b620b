package io.seqlink.soak;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.seqlink.channel.Delivery;
import io.seqlink.report.ReportJson;
import java.util.List;
import java.util.Locale;

/**
 * What a soak run found: per consumer, frames delivered, lost, duplicated, corrupt and (latest) the
 * missed count against the gaps actually seen; the producer's totals and rate; and the memory samples.
 *
 * @param options   what ran
 * @param backend   the backend's description
 * @param published frames the producer published
 * @param seconds   how long the producer ran
 * @param drained   whether every consumer acknowledged everything at the end
 * @param consumers one result per consumer
 * @param samples   memory and progress over time
 * @param chaos     pauses and stream stalls injected
 * @param retainedHeapStart heap reachable after full collections, before the first frame
 * @param retainedHeapEnd   heap reachable after full collections, after the drain
 */
public record SoakReport(SoakOptions options, String backend, long published, double seconds, boolean drained,
        List<ConsumerResult> consumers, List<MemorySampler.Sample> samples, long chaos, long retainedHeapStart,
        long retainedHeapEnd) {

    /**
     * One consumer's result.
     *
     * @param device        consumer device
     * @param delivered     frames its listener got
     * @param lost          lossless: published but never delivered; latest: frames neither delivered nor counted missed
     * @param duplicates    frames delivered again or out of order
     * @param corrupt       frames whose length or checksum was wrong
     * @param missed        the channel's missed counter (latest)
     * @param gaps          frames skipped between and after what it saw
     * @param listenerStalls stalls the listener injected
     */
    public record ConsumerResult(int device, long delivered, long lost, @JsonProperty("duplicated") long duplicates, long corrupt,
            long missed, long gaps, long listenerStalls) {
    }

    /** Zero lost, duplicated or corrupted frames; under latest, missed equals the gaps; and everything drained. */
    public boolean passed() {
        if (!drained) {
            return false;
        }
        for (ConsumerResult c : consumers) {
            if (c.lost != 0 || c.duplicates != 0 || c.corrupt != 0) {
                return false;
            }
            if (options.delivery() == Delivery.LATEST && c.missed != c.gaps) {
                return false;
            }
        }
        return true;
    }

    public double framesPerSecond() {
        return seconds > 0 ? published / seconds : 0;
    }

    /** Growth between the first and the last quarter of the run, from the medians of each (0 with few samples). */
    public long growth(java.util.function.ToLongFunction<MemorySampler.Sample> metric) {
        if (samples.size() < 8) {
            return 0;
        }
        int q = samples.size() / 4;
        return median(samples.subList(samples.size() - q, samples.size()), metric) - median(samples.subList(0, q), metric);
    }

    private static long median(List<MemorySampler.Sample> part, java.util.function.ToLongFunction<MemorySampler.Sample> metric) {
        long[] v = part.stream().mapToLong(metric).sorted().toArray();
        return v[v.length / 2];
    }

    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "seqlink soak: %s, %s delivery, host listeners named at open: %s, %d consumer(s), %d slots x %d B, stall p=%s%n",
                backend, options.delivery().name().toLowerCase(Locale.ROOT), options.hostRing() ? "yes" : "no", consumers.size(), options.slots(), options.slotBytes(),
                options.stallProbability()));
        sb.append(String.format(Locale.ROOT, "published %,d frames in %.1f s: %,.0f frames/s; chaos events %,d; drained %s%n",
                published, seconds, framesPerSecond(), chaos, drained));
        for (ConsumerResult c : consumers) {
            sb.append(String.format(Locale.ROOT,
                    "  consumer %d: delivered %,d  lost %d  duplicated %d  corrupt %d  missed %,d  gaps %,d  listener stalls %,d%n",
                    c.device, c.delivered, c.lost, c.duplicates, c.corrupt, c.missed, c.gaps, c.listenerStalls));
        }
        if (!samples.isEmpty()) {
            MemorySampler.Sample first = samples.get(0);
            MemorySampler.Sample last = samples.get(samples.size() - 1);
            sb.append(String.format(Locale.ROOT, "memory (%d samples): retained heap (after full GC) %s -> %s; heap used %s -> %s "
                    + "(after-GC median growth %s); direct %s -> %s; device used %s -> %s (device-wide: other processes count)%n",
                    samples.size(), mib(retainedHeapStart), mib(retainedHeapEnd), mib(first.heapUsed()), mib(last.heapUsed()),
                    mib(growth(MemorySampler.Sample::heapAfterGc)), mib(first.directBytes()), mib(last.directBytes()),
                    mib(first.deviceUsed()), mib(last.deviceUsed())));
        }
        sb.append(passed() ? "PASSED" : "FAILED").append('\n');
        return sb.toString();
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    /** The report as JSON (the {@code --json} file), written by Jackson from {@link Document}. */
    public String toJson() {
        return ReportJson.write(document());
    }

    /**
     * The JSON document: the run's settings, the totals, the memory growth figures, one entry per
     * consumer and the samples.
     */
    public record Document(String backend, String delivery, boolean hostListenersNamed, String streamMode, int consumers, int slots, long slotBytes,
            double stallProbability, long seed, long published, double seconds, double framesPerSecond, long chaosEvents,
            boolean drained, boolean passed, long lost, long duplicated, long corrupt, long retainedHeapStartBytes,
            long retainedHeapEndBytes, long heapAfterGcGrowthBytes, long directGrowthBytes, long deviceGrowthBytes,
            List<ConsumerResult> perConsumer, List<MemorySampler.Sample> samples) {
    }

    public Document document() {
        long lost = 0;
        long duplicated = 0;
        long corrupt = 0;
        for (ConsumerResult c : consumers) {
            lost += c.lost;
            duplicated += c.duplicates;
            corrupt += c.corrupt;
        }
        return new Document(backend, lower(options.delivery()), options.hostRing(), lower(options.streamMode()), consumers.size(), options.slots(),
                options.slotBytes(), options.stallProbability(), options.seed(), published, seconds, framesPerSecond(), chaos,
                drained, passed(), lost, duplicated, corrupt, retainedHeapStart, retainedHeapEnd,
                growth(MemorySampler.Sample::heapAfterGc), growth(MemorySampler.Sample::directBytes),
                growth(MemorySampler.Sample::deviceUsed), consumers, samples);
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
