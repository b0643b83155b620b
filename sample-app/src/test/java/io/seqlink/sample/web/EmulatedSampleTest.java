package io.seqlink.sample.web;

import io.seqlink.sample.SampleApplication;
import io.seqlink.test.context.EmulatedSeqlink;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The sample in this JVM with a real server on a random port, on the emulated backend (even on a GPU
 * machine: {@link EmulatedSeqlink}, with the links probed as the sample configures them), without the
 * background source so counts are exact. One context, shared by every class that carries this annotation.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@EmulatedSeqlink(verify = true)
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.pipeline.source-rate=0",
        "sample.pipeline.publish-timeout=500ms" })
public @interface EmulatedSampleTest {
}
