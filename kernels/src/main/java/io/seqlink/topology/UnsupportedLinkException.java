package io.seqlink.topology;

import io.seqlink.error.SeqlinkException;

/** A channel needs a link better than the verifier found, and the policy is {@link UnsupportedLinkPolicy#FAIL}. */
public class UnsupportedLinkException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    private final String channel;
    private final transient LinkVerdict verdict;
    private final LinkClass required;

    public UnsupportedLinkException(String channel, LinkVerdict verdict, LinkClass required) {
        super("channel '" + channel + "' needs link " + verdict.producer() + " -> " + verdict.consumer() + " to be at least "
                + required + ", but the verifier found " + verdict.verdict() + ": " + verdict.reason());
        this.channel = channel;
        this.verdict = verdict;
        this.required = required;
    }

    public String channel() {
        return channel;
    }

    public LinkVerdict verdict() {
        return verdict;
    }

    public LinkClass required() {
        return required;
    }
}
