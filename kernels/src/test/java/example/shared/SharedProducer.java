package example.shared;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import java.nio.file.Path;

/** The producer process of a channel shared with consumer processes on the same host. */
public class SharedProducer {

    public static PublishChannel share(SeqlinkRuntime runtime, Path dir, Path keyFile) {
        SharedSecret secret = SharedSecret.fromFile(keyFile, "frames secret");
        PublishChannel ch = runtime.openChannel(ChannelSpec.builder("frames").producer(0).slots(256).slotBytes(4096)
                .share(ChannelShare.of(dir, secret)) // no consumer of this process is needed; consumers(...) adds some
                .build());
        runtime.start();
        return ch; // ch.offer(...) is gated by every live consumer, local or attached
    }
}
