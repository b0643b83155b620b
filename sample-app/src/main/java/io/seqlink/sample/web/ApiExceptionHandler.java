package io.seqlink.sample.web;

import io.seqlink.channel.ChannelFailedException;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Errors of the sample's API as RFC 9457 problem details ({@code application/problem+json}): the
 * status, what is wrong in {@code detail}, and for bad input the {@code field} and the {@code fix}.
 */
@RestControllerAdvice(basePackageClasses = ApiExceptionHandler.class)
public class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    @ExceptionHandler(BadRequestException.class)
    ProblemDetail badRequest(BadRequestException ex) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage() + ". Fix: " + ex.fix() + ".");
        p.setTitle("Invalid request");
        p.setProperty("field", ex.field());
        p.setProperty("fix", ex.fix());
        return p;
    }

    @ExceptionHandler(ChannelFailedException.class)
    ProblemDetail channelFailed(ChannelFailedException ex) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
        p.setTitle("Channel failed");
        p.setType(URI.create("https://github.com/seqlink/seqlink/blob/main/docs/operations.md#health"));
        return p;
    }

    /** Malformed JSON (or none where a JSON object was expected): say so, with an example. */
    @Override
    protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "The request body is not a JSON object: "
                + firstLine(ex.getMostSpecificCause().getMessage()) + ". Fix: send a JSON object such as {\"count\": 100}.");
        p.setTitle("Invalid request");
        p.setProperty("field", "body");
        p.setProperty("fix", "send a JSON object such as {\"count\": 100} with Content-Type: application/json");
        return handleExceptionInternal(ex, p, headers, HttpStatus.BAD_REQUEST, request);
    }

    private static String firstLine(@Nullable String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
