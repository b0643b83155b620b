package io.seqlink.bench;

/** A command-line option the harness cannot use: names the flag, what was wrong, and the fix (exit code 2). */
public final class BadOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String flag;
    private final String fix;

    public BadOptionException(String flag, String problem, String fix) {
        super(flag + ": " + problem + "; " + fix);
        this.flag = flag;
        this.fix = fix;
    }

    public String flag() {
        return flag;
    }

    public String fix() {
        return fix;
    }
}
