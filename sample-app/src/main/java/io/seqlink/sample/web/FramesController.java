package io.seqlink.sample.web;

import io.seqlink.sample.pipeline.FramePreprocessor;
import io.seqlink.sample.pipeline.Pipeline;
import java.math.BigInteger;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/frames {"count": 100, "seed": 42}}: prepares {@code count} frames on the producer
 * device (seeds {@code seed, seed + 1, ...}; a random seed when none is given) and publishes them.
 * Answers 200 with the sequences once all are published; 400 naming the field for bad input; 503 with
 * what was published when the pipeline stayed full for {@code sample.pipeline.publish-timeout}.
 *
 * <p>The body is read as a map and checked by hand so that every mistake gets its own message:
 * unknown fields, wrong types and out-of-range values all name the field and the fix.
 */
@RestController
@RequestMapping("/api/frames")
@ConditionalOnBooleanProperty(name = "sample.pipeline.enabled", matchIfMissing = true)
public class FramesController {

    private static final Set<String> FIELDS = Set.of("count", "seed");

    private final Pipeline pipeline;

    public FramesController(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    @PostMapping
    public ResponseEntity<?> inject(@RequestBody(required = false) Map<String, Object> body) throws InterruptedException {
        int max = pipeline.properties().maxInject();
        String example = "send a JSON object such as {\"count\": 100} or {\"count\": 100, \"seed\": 42}";
        if (body == null) {
            throw new BadRequestException("count", "the request has no body", example);
        }
        for (String key : body.keySet()) {
            if (!FIELDS.contains(key)) {
                throw new BadRequestException(key, "unknown field '" + key + "'",
                        "the fields are count (1.." + max + ", required) and seed (an integer, optional)");
            }
        }
        Object countValue = body.get("count");
        if (countValue == null) {
            throw new BadRequestException("count", "count is required", example);
        }
        Long count = wholeNumber(countValue);
        if (count == null) {
            throw new BadRequestException("count", "count must be a whole number, got " + describe(countValue),
                    "send a number from 1 to " + max + ", e.g. {\"count\": 100}");
        }
        if (count < 1 || count > max) {
            throw new BadRequestException("count", "count must be between 1 and " + max + ", got " + count,
                    "send at most " + max + " frames per request (sample.pipeline.max-inject), or several requests");
        }
        long seed;
        Object seedValue = body.get("seed");
        if (seedValue == null) {
            seed = ThreadLocalRandom.current().nextLong(1, 1L << 40);
        } else {
            Long s = wholeNumber(seedValue);
            if (s == null) {
                throw new BadRequestException("seed", "seed must be a whole number, got " + describe(seedValue),
                        "send an integer such as {\"count\": 10, \"seed\": 42}, or leave seed out for a random one");
            }
            seed = s;
        }
        FramePreprocessor.Injection r = pipeline.preprocessor().produce(count.intValue(), seed,
                pipeline.properties().publishTimeout());
        pipeline.statistics().injection();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("channel", pipeline.frames().name());
        answer.put("requested", r.requested());
        answer.put("published", r.published());
        answer.put("firstSequence", r.published() == 0 ? null : r.firstSequence());
        answer.put("lastSequence", r.published() == 0 ? null : r.lastSequence());
        answer.put("firstSeed", r.firstSeed());
        if (r.stop() == FramePreprocessor.Stop.NONE) {
            return ResponseEntity.ok(answer);
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, why(r));
        problem.setTitle("Frames not all published");
        URI help = help(r.stop());
        if (help != null) {
            problem.setType(help);
        }
        answer.forEach(problem::setProperty);
        problem.setProperty("stop", r.stop().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "1").body(problem);
    }

    private String why(FramePreprocessor.Injection r) {
        String done = r.published() + " of " + r.requested() + " frames were published";
        String timeout = pipeline.properties().publishTimeout().toString();
        return switch (r.stop()) {
            case BUSY -> done + ": other injections held the producer for " + timeout + "; try again";
            case NO_CREDIT -> done + ": " + pipeline.properties().maxInFlight() + " frames stayed uncollected for " + timeout
                    + " (sample.pipeline.max-in-flight); the collector or an inference device is behind: see "
                    + "/api/pipeline and /actuator/seqlink";
            case BACK_PRESSURED -> done + ": channel '" + pipeline.frames().name() + "' had no free slot for " + timeout
                    + "; a consumer is not keeping up: see /actuator/seqlink/" + pipeline.frames().name();
            case CLOSED -> done + ": channel '" + pipeline.frames().name() + "' is closed (the service is stopping)";
            case FAILED -> done + ": channel '" + pipeline.frames().name() + "' failed: " + r.failure();
            case NONE -> done;
        };
    }

    /** Where the docs explain a stop: a full pipeline is a lagging consumer; a closed one is the service stopping. */
    static @Nullable URI help(FramePreprocessor.Stop stop) {
        String docs = "https://github.com/seqlink/seqlink/blob/main/docs/";
        return switch (stop) {
            case NO_CREDIT, BACK_PRESSURED -> URI.create(docs + "troubleshooting.md#a-lagging-consumer");
            case CLOSED -> URI.create(docs + "operations.md#shutdown");
            case FAILED -> URI.create(docs + "operations.md#health");
            case BUSY, NONE -> null;
        };
    }

    /** The value as a long if it is a JSON integer that fits, else {@code null}. */
    private static @Nullable Long wholeNumber(@Nullable Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        return null;
    }

    private static String describe(Object value) {
        if (value instanceof String s) {
            return "the string \"" + s + "\"";
        }
        if (value instanceof Number n) {
            return n.toString();
        }
        if (value instanceof Boolean b) {
            return b.toString();
        }
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof java.util.List) {
            return "an array";
        }
        return String.valueOf(value);
    }
}
