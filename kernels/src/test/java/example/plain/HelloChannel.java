package example.plain;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

public class HelloChannel {

    public static void main(String[] args) {
        run(System.out);
    }

    public static void run(PrintStream out) {
        try (SeqlinkRuntime runtime = SeqlinkRuntime.builder()
                .backend(BackendSelection.EMULATED)              // or AUTO: CUDA when a GPU is there
                .emulated(EmulatedTopology.allNvlink(2))
                .open()) {
            PublishChannel frames = runtime.openChannel(ChannelSpec.builder("frames")
                    .producer(0).consumers(1).slots(64).slotBytes(1024).build());
            frames.consumer(1).subscribe(frame ->
                    out.println("frame " + frame.sequence() + ": " + StandardCharsets.UTF_8.decode(frame.payload())));
            runtime.start();                                     // the launcher polls the consumers
            for (int i = 1; i <= 3; i++) {
                byte[] bytes = ("hello " + i).getBytes(StandardCharsets.UTF_8);
                frames.offer(bytes, 0, bytes.length);            // claim, copy, commit, publish
            }
            byte[] fourth = "hello 4".getBytes(StandardCharsets.UTF_8);
            while (!publishWithoutAllocating(frames, fourth)) {
                Thread.onSpinWait();                             // every slot still being read: try again
            }
            runtime.launcher().awaitDrained(Duration.ofSeconds(5));
        }
    }

    /** The hot path: write straight into the claimed slot and publish; false when no slot is free now. */
    static boolean publishWithoutAllocating(PublishChannel frames, byte[] message) {
        long seq = frames.tryClaim();                            // > 0: a sequence; < 0: a ClaimStatus
        if (seq < 0) {
            return false;                                        // e.g. BACK_PRESSURED: every slot still being read
        }
        ByteBuffer slot = frames.buffer();                       // the payload: index 0, limit = slot size, little-endian
        slot.put(0, message);
        frames.commit(message.length);                           // this frame's length
        frames.publish();                                        // or commit up to max-publish-batch frames, then publish once
        return true;
    }
}
