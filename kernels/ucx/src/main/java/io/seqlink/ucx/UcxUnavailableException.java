package io.seqlink.ucx;

import io.seqlink.error.SeqlinkException;

/** UCX's libraries are missing or do not match the JUCX binding; {@link #info()} says what was found. */
public class UcxUnavailableException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    private final transient UcxInfo info;

    public UcxUnavailableException(UcxInfo info, Throwable cause) {
        super(info.problem(), cause);
        this.info = info;
    }

    public UcxInfo info() {
        return info;
    }
}
