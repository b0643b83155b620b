package io.seqlink.channel.lifecycle;

import io.seqlink.channel.producer.PublishTimeRecord;
import io.seqlink.channel.shared.ChannelExport;

/** A shared channel's publish times: kept in its export's region, where the consumer processes read them too. */
final class ExportedPublishTimes implements PublishTimeRecord {

    private final ChannelExport export;

    ExportedPublishTimes(ChannelExport export) {
        this.export = export;
    }

    @Override
    public void record(long first, int count, long nanos) {
        export.recordPublishTimes(first, count, nanos);
    }

    @Override
    public long of(long sequence) {
        return export.publishTime(sequence);
    }
}
