package io.seqlink.backend.cuda;

import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;
import org.jspecify.annotations.Nullable;

/**
 * One device's driver state: its primary context (retained once, released at close), the seqlink
 * module loaded into it with every runtime kernel looked up ({@link KernelArgs#RUNTIME_KERNELS}), the
 * users' modules loaded on first use, a utility stream for setup work, and what the device can do.
 *
 * <p>The driver's current context is per thread. {@link #bind()} makes this context current on the
 * calling thread, remembering per thread which context it last set, so the hot path pays one
 * thread-local read and no driver call after the first time.
 */
final class DeviceContext implements AutoCloseable {

    /** The context each thread last made current through seqlink. */
    private static final ThreadLocal<CurrentContext> CURRENT = ThreadLocal.withInitial(CurrentContext::new);

    private static final class CurrentContext {
        /** {@code null}: none set through seqlink on this thread. */
        @Nullable CUcontext context;
    }

    private final int ordinal;
    private final CUdevice device = new CUdevice();
    private final CUcontext context = new CUcontext();
    private final CUmodule module = new CUmodule();
    private final Map<String, CUfunction> functions = new ConcurrentHashMap<>();
    /** Users' modules by image (identity: each KernelImage loads once per device), unloaded at close. */
    private final Map<KernelImage, CUmodule> userModules = new ConcurrentHashMap<>();
    private final String name;
    private final int multiprocessors;
    private final boolean streamMemOps64;
    private final int computeMajor;
    private final int computeMinor;
    private final CUstream utility = new CUstream();
    private final ParamArena params;
    private boolean retained;
    private boolean moduleLoaded;
    private boolean utilityCreated;

    DeviceContext(int ordinal, byte[] fatbin) {
        this.ordinal = ordinal;
        Cu.check(JCudaDriver.cuDeviceGet(device, ordinal), "cuDeviceGet", ordinal);
        this.name = deviceName(device);
        this.multiprocessors = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        this.streamMemOps64 = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS) != 0;
        this.computeMajor = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
        this.computeMinor = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        if (attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) == 0) {
            throw Cu.error(jcuda.driver.CUresult.CUDA_ERROR_NOT_SUPPORTED, "cuDeviceGetAttribute(UNIFIED_ADDRESSING)",
                    ordinal, "seqlink needs unified addressing (64-bit Linux, compute capability 7.0 or newer)");
        }
        Cu.check(JCudaDriver.cuDevicePrimaryCtxRetain(context, device), "cuDevicePrimaryCtxRetain", ordinal);
        retained = true;
        this.params = new ParamArena(ordinal);
        try {
            bind();
            Cu.check(JCudaDriver.cuModuleLoadData(module, fatbin), "cuModuleLoadData", ordinal,
                    "loading the seqlink kernels (io/seqlink/kernels/seqlink.fatbin) for compute capability "
                            + computeMajor + "." + computeMinor);
            moduleLoaded = true;
            for (String kernel : KernelArgs.RUNTIME_KERNELS) {
                function(kernel);
            }
            Cu.check(JCudaDriver.cuStreamCreate(utility, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate", ordinal);
            utilityCreated = true;
        } catch (RuntimeException ex) {
            close();
            throw ex;
        }
    }

    private int attribute(int attribute) {
        int[] v = new int[1];
        Cu.check(JCudaDriver.cuDeviceGetAttribute(v, attribute, device), "cuDeviceGetAttribute(" + attribute + ")", ordinal);
        return v[0];
    }

    private static String deviceName(CUdevice device) {
        byte[] bytes = new byte[256];
        JCudaDriver.cuDeviceGetName(bytes, bytes.length, device);
        int n = 0;
        while (n < bytes.length && bytes[n] != 0) {
            n++;
        }
        return new String(bytes, 0, n, java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Makes this device's context current on the calling thread (a no-op when it already is). */
    void bind() {
        CurrentContext current = CURRENT.get();
        if (current.context != context) {
            Cu.check(JCudaDriver.cuCtxSetCurrent(context), "cuCtxSetCurrent", ordinal);
            current.context = context;
        }
    }

    /** The kernel {@code name} of the seqlink module. */
    CUfunction function(String name) {
        return functions.computeIfAbsent(name, n -> {
            CUfunction f = new CUfunction();
            bind();
            Cu.check(JCudaDriver.cuModuleGetFunction(f, module, n), "cuModuleGetFunction(" + n + ")", ordinal,
                    "the fat binary has no kernel '" + n + "'; rebuild seqlink-kernels");
            return f;
        });
    }

    /**
     * Kernel {@code name} of a user's module, loading the module's image into this context on first use
     * ({@link io.seqlink.backend.KernelsMissingException} when the image is missing).
     */
    CUfunction userFunction(KernelModule module, String name) {
        CUmodule m = userModules.computeIfAbsent(module.image(), image -> {
            byte[] bytes = image.bytes();
            CUmodule loaded = new CUmodule();
            bind();
            Cu.check(JCudaDriver.cuModuleLoadData(loaded, bytes), "cuModuleLoadData", ordinal,
                    "loading kernel module '" + module.name() + "' (" + image.name() + ") for compute capability "
                            + computeMajor + "." + computeMinor);
            return loaded;
        });
        CUfunction f = new CUfunction();
        bind();
        Cu.check(JCudaDriver.cuModuleGetFunction(f, m, name), "cuModuleGetFunction(" + name + ")", ordinal,
                "kernel module '" + module.name() + "' (" + module.image().name() + ") has no kernel '" + name
                        + "'; declare it extern \"C\" so its name is not mangled");
        return f;
    }

    int ordinal() {
        return ordinal;
    }

    String name() {
        return name;
    }

    CUdevice device() {
        return device;
    }

    CUcontext context() {
        return context;
    }

    int multiprocessors() {
        return multiprocessors;
    }

    boolean streamMemOps64() {
        return streamMemOps64;
    }

    String computeCapability() {
        return computeMajor + "." + computeMinor;
    }

    /** A stream for setup work (zero-filling allocations) that nothing else waits on. */
    CUstream utilityStream() {
        return utility;
    }

    ParamArena params() {
        return params;
    }

    /** Waits for every stream of this context; used before memory is freed. */
    void synchronize() {
        bind();
        Cu.check(JCudaDriver.cuCtxSynchronize(), "cuCtxSynchronize", ordinal);
    }

    @Override
    public void close() {
        if (!retained) {
            return;
        }
        try {
            CurrentContext current = CURRENT.get();
            JCudaDriver.cuCtxSetCurrent(context);
            current.context = context;
            if (utilityCreated) {
                JCudaDriver.cuStreamDestroy(utility);
                utilityCreated = false;
            }
            params.close();
            for (CUmodule m : userModules.values()) {
                JCudaDriver.cuModuleUnload(m);
            }
            userModules.clear();
            if (moduleLoaded) {
                JCudaDriver.cuModuleUnload(module);
                moduleLoaded = false;
            }
            JCudaDriver.cuCtxSetCurrent(new CUcontext()); // no context (JCuda rejects a null argument)
            current.context = null;
        } finally {
            JCudaDriver.cuDevicePrimaryCtxRelease(device);
            retained = false;
        }
    }
}
