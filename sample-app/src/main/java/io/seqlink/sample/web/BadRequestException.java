package io.seqlink.sample.web;

/** A request the API refuses, naming the field, what is wrong, and the fix: answered 400. */
public class BadRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final String fix;

    public BadRequestException(String field, String problem, String fix) {
        super(problem);
        this.field = field;
        this.fix = fix;
    }

    public String field() {
        return field;
    }

    public String fix() {
        return fix;
    }
}
