package io.seqlink.spring.listener;

import io.seqlink.LogKeys;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameErrorHandler;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default dead-letter hook: logs a frame whose listener failed every attempt at ERROR, with its
 * channel, consumer device, sequence and length (never its payload), and counts it. Consumption goes
 * on; the consumer's {@code dead-lettered} counter (metric {@code seqlink.consumer.dead.lettered})
 * counts it too. Declare your own {@link FrameErrorHandler} bean to send such frames elsewhere; copy
 * the payload there, the frame is a flyweight.
 */
public class LoggingFrameErrorHandler implements FrameErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(LoggingFrameErrorHandler.class);

    private final LongAdder count = new LongAdder();

    @Override
    public void onFailedFrame(Frame frame, Exception cause) {
        count.increment();
        log.atError().addKeyValue(LogKeys.CHANNEL, frame.channel()).addKeyValue(LogKeys.DEVICE, frame.consumerDevice())
                .addKeyValue(LogKeys.SEQUENCE, frame.sequence()).setCause(cause)
                .log("seqlink channel '{}' consumer {}: frame {} ({} B) failed {} delivery attempt(s) and is dead-lettered",
                        frame.channel(), frame.consumerDevice(), frame.sequence(), frame.length(), frame.attempt());
    }

    /** Frames this handler has taken. */
    public long deadLettered() {
        return count.sum();
    }
}
