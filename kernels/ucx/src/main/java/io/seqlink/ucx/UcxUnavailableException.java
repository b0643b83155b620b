package io.seqlink.ucx;

import io.seqlink.error.SeqlinkException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** UCX's libraries are missing or do not match the JUCX binding; {@link #info()} says what was found. */
public class UcxUnavailableException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    private final transient UcxInfo info;

    public UcxUnavailableException(UcxInfo info, @Nullable Throwable cause) {
        super(Objects.requireNonNullElse(info.problem(), info.describe()), cause);
        this.info = info;
    }

    public UcxInfo info() {
        return info;
    }
}
