package io.seqlink.channel.consumer;

import io.seqlink.backend.DeviceException;
import io.seqlink.layout.ConsumerBlock;
import org.jspecify.annotations.Nullable;

/**
 * Turns what a consumer's device steps report of a broken channel rule into the failure the consumer dies of:
 * ordinary rounds that took less than the launcher asked for ({@link ConsumerBlock#SHORT_ROUNDS}), and a round
 * kernel or in-kernel acknowledgement that failed its round because a block of an earlier launch returned without
 * arriving ({@link ConsumerBlock#PROTOCOL_ERROR}). Both words stay 0 while the rules hold; either one not 0 means
 * the device's view of the channel can no longer be trusted (device rounds acknowledge the range the launcher gave
 * them), so the consumer is failed rather than left to acknowledge frames it never took. Stateless; any thread.
 */
final class ProtocolReports {

    private ProtocolReports() {
    }

    /** The failure the reported words mean for consumer {@code device} of {@code channel}, or {@code null} when both are 0. */
    static @Nullable DeviceException failure(String channel, int device, long shortRounds, long protocolError) {
        if (protocolError != 0) {
            return new DeviceException("SEQLINK_ROUND_PROTOCOL", site(protocolError), device, false, "consumer of channel '"
                    + channel + "' failed round " + (protocolError & ((1L << ConsumerBlock.PROTOCOL_SITE_SHIFT) - 1))
                    + ": its launch found the round's grid counter left by an earlier launch, one of whose blocks returned "
                    + "without calling it; every block must call end_round / acknowledge_taken_at_end (and take_round) once "
                    + "per launch. The round took and acknowledged nothing; fix the listener's kernel (DeviceFrameHandler)");
        }
        if (shortRounds != 0) {
            return new DeviceException("SEQLINK_SHORT_ROUND", "seqlink_consume", device, false, "consumer of channel '" + channel
                    + "': " + shortRounds + " ordinary round(s) took fewer frames than the launcher saw published "
                    + "(ConsumerSnapshot.shortRounds): the producer's host mirror of publish_seq ran ahead of publish_seq "
                    + "itself, which the publish's ordering rules out (docs/memory-model.md, P9). A device round "
                    + "acknowledges the range it was given, so the consumer stops rather than acknowledge frames it never took");
        }
        return null;
    }

    private static String site(long protocolError) {
        return switch ((int) (protocolError >>> ConsumerBlock.PROTOCOL_SITE_SHIFT)) {
            case ConsumerBlock.PROTOCOL_SITE_TAKE_ROUND -> "seqlink::device::take_round";
            case ConsumerBlock.PROTOCOL_SITE_END_ROUND -> "seqlink::device::end_round";
            case ConsumerBlock.PROTOCOL_SITE_ACKNOWLEDGE_TAKEN -> "seqlink::device::acknowledge_taken_at_end";
            default -> "a round kernel";
        };
    }
}
