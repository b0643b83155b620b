package io.seqlink.ucx;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What UCX this process has, found once at runtime ({@link UcxEnvironment#probe()}).
 *
 * @param available   whether JUCX loaded and a UCX context opened
 * @param jucxVersion the JUCX binding's version (from its jar)
 * @param ucxVersion  the UCX library's version ({@code ucx_info -v} next to the loaded library), or "unknown"
 * @param library     the {@code libucp} this process loaded, or "not loaded"
 * @param memoryTypes the memory types the UCX context supports: {@code host}, and {@code cuda},
 *                    {@code cuda-managed}, {@code rocm}, {@code rocm-managed} when UCX was built with them
 * @param problem     why UCX is not available, with what to install; {@code null} when it is
 */
public record UcxInfo(boolean available, String jucxVersion, String ucxVersion, String library, List<String> memoryTypes,
        @Nullable String problem) {

    public UcxInfo {
        memoryTypes = List.copyOf(memoryTypes);
    }

    /** Whether UCX can register and move CUDA device memory directly (a CUDA-enabled UCX: HPC-X, DOCA, a source build). */
    public boolean cudaMemory() {
        return memoryTypes.contains("cuda");
    }

    /** One line for a log. */
    public String describe() {
        return available ? "UCX " + ucxVersion + " (" + library + "), JUCX " + jucxVersion + ", memory types " + memoryTypes
                : "UCX unavailable: " + problem;
    }
}
