package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.autoconfigure.ChannelAttachFailedException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a channel under {@code seqlink.attach} that could not be attached at startup: what the runtime found (no
 * producer socket, nobody listening, a wrong secret, a refusal, another version), and the property to check with its
 * fix ({@code seqlink.attach.<name>.directory}, {@code .secret-file}, or the producer's side).
 */
class ChannelAttachFailureAnalyzer extends AbstractFailureAnalyzer<ChannelAttachFailedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ChannelAttachFailedException cause) {
        String p = cause.prefix();
        String name = cause.channel();
        String producer = "seqlink.channels." + name + ".share";
        String description = "seqlink could not attach to channel '" + name + "' (" + p.substring(0, p.length() - 1)
                + ", share directory " + cause.directory() + "):\n\n    " + cause.attachFailure().getMessage();
        String action = switch (cause.attachFailure().reason()) {
            case NO_PRODUCER -> "No producer shares channel '" + name + "' in " + cause.directory() + ". Start the producer service "
                    + "first (it shares the channel with " + producer + ".enabled=true), or set " + p + "directory to the "
                    + "producer's " + producer + ".directory. A consumer service fails at startup while its producer is "
                    + "absent; let its supervisor (systemd, Kubernetes, docker compose) restart it.";
            case NOT_LISTENING -> "The producer that shared channel '" + name + "' in " + cause.directory() + " has exited (its "
                    + "socket is left, nobody listens on it). Start the producer service again, then this one; check that "
                    + p + "directory names the directory of the producer that runs now.";
            case PRODUCER_NOT_PROVEN -> "The producer could not prove this service's secret: the two hold different secrets. "
                    + "Set " + p + "secret-file to a file with the same secret as the producer's " + producer
                    + ".secret-file.";
            case REFUSED -> "The producer refused the attach for the reason above. A proof that does not verify means a "
                    + "wrong secret: set " + p + "secret-file to a file with the same secret as the producer's " + producer
                    + ".secret-file. Another protocol version: run the same seqlink version in both services. Every seat "
                    + "taken: raise " + producer + ".seats in the producer. Another user: run both services as one user.";
            case INCOMPATIBLE -> "The producer runs another seqlink version (or left a stale region): run the same seqlink "
                    + "version in both services, and restart the producer.";
            case DIRECTORY -> "Make " + p + "directory a directory of this service's user that group and others cannot "
                    + "reach (chmod 700), the same as the producer's " + producer + ".directory.";
            case OTHER -> "Check that the producer service runs and answers (raise " + p + "connect-timeout if it is slow to "
                    + "answer), and that " + p + "device is a device of this service.";
        };
        return new FailureAnalysis(description, action, cause);
    }
}
