package io.seqlink.autoconfigure.shared;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A producer process for {@link AttachedChannelObservabilityTests}: {@code DIR SECRET_FILE} shares channel 'frames'
 * (16 slots of 256 B, stall timeout 2 s), prints READY, publishes {@code publish N} more 8-byte frames, ends on "stop".
 */
public final class ProducerProcess {

    private ProducerProcess() {
    }

    public static void main(String[] args) throws Exception {
        SharedSecret secret = SharedSecret.fromFile(Path.of(args[1]), "secret file");
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("frames").producer(0).slots(16).slotBytes(256)
                    .stallTimeout(Duration.ofSeconds(2)).share(ChannelShare.of(Path.of(args[0]), secret)).build());
            rt.start();
            System.out.println("READY");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            long next = 1;
            String line;
            while ((line = in.readLine()) != null && !line.equals("stop")) {
                if (line.startsWith("publish ")) {
                    long n = Long.parseLong(line.substring(8).trim());
                    for (long i = 0; i < n; i++) {
                        TestChannels.publishLong(ch, next++);
                    }
                    System.out.println("STATUS published=" + (next - 1));
                    System.out.flush();
                }
            }
        }
        System.out.println("CLOSED");
        System.out.flush();
        System.exit(0);
    }
}
