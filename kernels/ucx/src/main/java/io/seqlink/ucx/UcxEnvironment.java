package io.seqlink.ucx;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucs.UcsConstants;

/**
 * Finds out once per process whether UCX is usable and what it is: loads JUCX (which loads
 * {@code libucp}, {@code libuct}, {@code libucs}, {@code libucm} from the system), opens a context,
 * reads its memory types, the loaded library's path and UCX's version. A failed load is kept with its
 * first cause: the JVM answers every later use of the class with a bare {@code NoClassDefFoundError}.
 *
 * <p>Threads: safe from any thread; the first call probes, later calls return the same answer.
 */
public final class UcxEnvironment {

    /** What to install, for messages and failure analyses. */
    public static final String INSTALL_HINT = "Install UCX: on Debian/Ubuntu 'apt-get install libucx0 ucx-utils' "
            + "(bookworm ships UCX 1.13.1, host memory only); with HPC-X, DOCA or your own UCX build, put its lib "
            + "directory on LD_LIBRARY_PATH. seqlink-ucx binds JUCX 1.12.1, which needs UCX 1.12 or newer.";

    private static volatile @Nullable UcxInfo info;
    private static volatile @Nullable Throwable firstFailure;

    private UcxEnvironment() {
    }

    public static UcxInfo probe() {
        UcxInfo known = info;
        if (known != null) {
            return known;
        }
        synchronized (UcxEnvironment.class) {
            if (info == null) {
                info = detect();
            }
            return info;
        }
    }

    /** The probe's answer if UCX is usable; else a {@link UcxUnavailableException} saying what to install. */
    public static UcxInfo requireAvailable() {
        UcxInfo i = probe();
        if (!i.available()) {
            throw new UcxUnavailableException(i, firstFailure);
        }
        return i;
    }

    private static UcxInfo detect() {
        String jucx = jucxVersion();
        List<String> types = new ArrayList<>();
        try (UcpContext context = new UcpContext(new UcpParams().requestRmaFeature().requestAmFeature())) {
            long mask = context.getMemoryTypesMask();
            String[] names = { "host", "cuda", "cuda-managed", "rocm", "rocm-managed" };
            int[] codes = { UcsConstants.MEMORY_TYPE.UCS_MEMORY_TYPE_HOST, UcsConstants.MEMORY_TYPE.UCS_MEMORY_TYPE_CUDA,
                UcsConstants.MEMORY_TYPE.UCS_MEMORY_TYPE_CUDA_MANAGED, UcsConstants.MEMORY_TYPE.UCS_MEMORY_TYPE_ROCM,
                UcsConstants.MEMORY_TYPE.UCS_MEMORY_TYPE_ROCM_MANAGED };
            for (int i = 0; i < names.length; i++) {
                if (UcsConstants.MEMORY_TYPE.isMemTypeSupported(mask, codes[i])) {
                    types.add(names[i]);
                }
            }
        } catch (Throwable t) {
            firstFailure = t;
            String library = loadedLibrary();
            return new UcxInfo(false, jucx, library == null ? "unknown" : ucxVersion(library), library == null ? "not loaded" : library,
                    List.of(), describe(t, jucx));
        }
        String library = loadedLibrary();
        return new UcxInfo(true, jucx, library == null ? "unknown" : ucxVersion(library), library == null ? "unknown" : library,
                types, null);
    }

    /**
     * What a failed load of JUCX or UCX means, with the fix: the binding missing from the class path,
     * UCX libraries older than the binding needs (an undefined symbol), UCX not installed, JUCX failed
     * before (the JVM then answers with a bare "Could not initialize class"), or a context UCX refused.
     * Safe from any thread.
     *
     * @param failure what loading or opening a context threw
     * @param jucx    the JUCX binding's version
     */
    public static String describe(Throwable failure, String jucx) {
        Throwable t = failure instanceof ExceptionInInitializerError e && e.getCause() != null ? e.getCause() : failure;
        String message = String.valueOf(t.getMessage());
        if (t instanceof NoClassDefFoundError && message.startsWith("Could not initialize class")) {
            return "JUCX " + jucx + " failed to initialize earlier in this process (" + message + "); its first failure was "
                    + "lost to the JVM: look for an UnsatisfiedLinkError above. " + INSTALL_HINT;
        }
        if (t instanceof NoClassDefFoundError && (message.contains("org/openucx") || message.contains("org.openucx"))) {
            return "the JUCX binding (org.openucx:jucx) is not on the classpath. Add org.openucx:jucx:" + jucx + ". " + INSTALL_HINT;
        }
        if (message.contains("undefined symbol")) {
            return "the UCX libraries found do not match JUCX " + jucx + " (" + message + "): they are older than it needs. "
                    + INSTALL_HINT;
        }
        if (message.contains("cannot open shared object") || t instanceof UnsatisfiedLinkError) {
            return "UCX's libraries are not installed (" + message + "). " + INSTALL_HINT;
        }
        return "UCX could not open a context (" + t + "): check UCX_* environment variables (e.g. UCX_TLS=tcp). " + INSTALL_HINT;
    }

    private static String jucxVersion() {
        try (InputStream in = UcxEnvironment.class.getClassLoader()
                .getResourceAsStream("META-INF/maven/org.openucx/jucx/pom.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The libucp mapped into this process, from /proc/self/maps (Linux), or {@code null}. */
    private static @Nullable String loadedLibrary() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"), StandardCharsets.UTF_8)) {
                int at = line.indexOf('/');
                if (at >= 0 && line.contains("libucp.so")) {
                    return line.substring(at).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** UCX's version from the {@code ucx_info} of the library's install (or on the PATH), at most 3 s. */
    private static String ucxVersion(String library) {
        Path lib = Path.of(library).getParent();
        List<String> candidates = new ArrayList<>();
        for (Path up = lib; up != null && candidates.size() < 3; up = up.getParent()) {
            candidates.add(up.resolve("bin/ucx_info").toString());
        }
        candidates.add("ucx_info");
        for (String tool : candidates) {
            if (tool.contains("/") && !Files.isExecutable(Path.of(tool))) {
                continue;
            }
            try {
                Process p = new ProcessBuilder(tool, "-v").redirectErrorStream(true).start();
                if (!p.waitFor(3, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    continue;
                }
                for (String line : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    String l = line.replace("#", "").trim();
                    if (l.startsWith("Version")) {
                        return l.substring("Version".length()).trim();
                    }
                }
            } catch (IOException e) {
                // not there; try the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return "unknown (no ucx_info: install ucx-utils to see it)";
    }
}
