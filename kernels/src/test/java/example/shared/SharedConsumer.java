package example.shared;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.FrameHandler;
import io.seqlink.security.SharedSecret;
import java.nio.file.Path;

/** A consumer process attached to a channel another process on the same host shares. */
public class SharedConsumer {

    public static AttachedChannel attach(SeqlinkRuntime runtime, Path dir, Path keyFile, FrameHandler handler) {
        SharedSecret secret = SharedSecret.fromFile(keyFile, "frames secret");
        AttachedChannel in = runtime.attachChannel(AttachSpec.of("frames", dir, secret).onDevice(0));
        in.consumer().subscribe(handler); // reads the shared ring in place; subscribeDevice(...) for a device listener
        runtime.start();
        return in; // in.state(): OPEN while attached; FAILED once the producer is gone, in.failure() saying how
    }
}
