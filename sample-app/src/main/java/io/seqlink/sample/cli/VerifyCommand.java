package io.seqlink.sample.cli;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.sample.SampleApplication;
import java.io.PrintStream;
import java.util.Map;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * {@code java -jar seqlink-sample-app.jar verify [--property=value ...]}: starts the application's
 * configuration without a web server and without the pipeline, so the starter opens the backend and
 * verifies every link the configured channels use; prints {@link TopologyTable the table}; exits
 * <ul>
 * <li>0 when every link a channel uses meets {@code seqlink.topology.required-link-class},</li>
 * <li>2 when one does not (whatever {@code on-unsupported} says: this command reports, it does not fall back),</li>
 * <li>1 when the application cannot start (the reason is logged by Spring Boot's failure analysis).</li>
 * </ul>
 */
public final class VerifyCommand {

    public static final int OK = 0;
    public static final int STARTUP_FAILED = 1;
    public static final int LINK_FAILED = 2;

    private VerifyCommand() {
    }

    public static int run(String[] args, PrintStream out) {
        SpringApplication app = new SpringApplication(SampleApplication.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        app.setBannerMode(Banner.Mode.OFF);
        VerifyOverrides overrides = new VerifyOverrides();
        app.addListeners(overrides);
        try (ConfigurableApplicationContext context = app.run(args)) {
            SeqlinkRuntime runtime = context.getBean(SeqlinkRuntime.class);
            TopologyTable.Result result = TopologyTable.of(runtime, runtime.policy().required(), overrides.configuredPolicy);
            out.print(result.text());
            out.flush();
            return result.ok() ? OK : LINK_FAILED;
        } catch (RuntimeException ex) {
            // Spring Boot has logged the failure analysis (what is wrong and what to set).
            return STARTUP_FAILED;
        }
    }

    /**
     * Before the context starts: remember the configured policy, then open every channel whatever the
     * links (policy warn) so the table can show all of them; leave the pipeline and the listeners off.
     */
    static final class VerifyOverrides implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {
        String configuredPolicy = "fail";

        /** After the config data is loaded (+10), before the logging system reads its levels (+20). */
        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE + 15;
        }

        @Override
        public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
            ConfigurableEnvironment env = event.getEnvironment();
            configuredPolicy = env.getProperty("seqlink.topology.on-unsupported", "fail");
            env.getPropertySources().addFirst(new MapPropertySource("seqlink-sample-verify", Map.of(
                    "seqlink.topology.on-unsupported", "warn",
                    "seqlink.listener.auto-startup", "false",
                    "sample.pipeline.enabled", "false",
                    "spring.main.web-application-type", "none",
                    "spring.main.log-startup-info", "false",
                    // the table is the output: only warnings (such as the backend fallback) besides it
                    "logging.level.root", "WARN",
                    "logging.level.io.seqlink", "WARN")));
        }
    }
}
