package io.seqlink;

/**
 * The key-value pairs seqlink adds to its WARN and ERROR log lines (SLF4J's key-value API), so that a
 * structured log format (Spring Boot's {@code logging.structured.format.console=ecs} or {@code logstash})
 * carries them as fields. Constants only.
 */
public final class LogKeys {

    /** The channel's name. */
    public static final String CHANNEL = "seqlink.channel";

    /** The device the line is about: a consumer's device, or the producer's for a producer's line. */
    public static final String DEVICE = "seqlink.device";

    /** The frame's sequence, on lines about one frame. */
    public static final String SEQUENCE = "seqlink.sequence";

    private LogKeys() {
    }
}
