package io.seqlink.backend;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A user's kernels: the compiled {@link KernelImage} the CUDA backend loads, and a Java twin per kernel
 * name that the emulated backend runs instead, so one application runs with or without a GPU. Bind a
 * kernel of it to a stream with {@link DeviceStream#bindKernel}; docs/device-kernels.md has an example.
 *
 * <pre>{@code
 * KernelModule sample = KernelModule.builder("sample", KernelImage.ofResource("com/acme/kernels.fatbin"))
 *         .emulated("scale", call -> { ... the same arithmetic in Java ... })
 *         .build();
 * }</pre>
 *
 * <p>Immutable and safe to share between threads and backends; each CUDA device loads the image once.
 */
public final class KernelModule {

    private final String name;
    private final KernelImage image;
    private final Map<String, EmulatedKernel> twins;

    private KernelModule(Builder b) {
        this.name = b.name;
        this.image = b.image;
        this.twins = Map.copyOf(b.twins);
    }

    /** Starts a module named {@code name} (in errors and logs) whose device code is {@code image}. */
    public static Builder builder(String name, KernelImage image) {
        return new Builder(name, image);
    }

    public String name() {
        return name;
    }

    public KernelImage image() {
        return image;
    }

    /** The Java twin registered for {@code kernel}, or {@code null} when there is none. */
    public @Nullable EmulatedKernel emulated(String kernel) {
        return twins.get(kernel);
    }

    @Override
    public String toString() {
        return "KernelModule[" + name + ", " + image.name() + ", twins " + twins.keySet() + "]";
    }

    /** Collects the module's parts; not thread-safe (build it on one thread). */
    public static final class Builder {

        private final String name;
        private final KernelImage image;
        private final Map<String, EmulatedKernel> twins = new LinkedHashMap<>();

        private Builder(String name, KernelImage image) {
            this.name = Objects.requireNonNull(name, "name");
            this.image = Objects.requireNonNull(image, "image");
        }

        /** Registers the Java twin of kernel {@code kernel}; replaces an earlier one of that name. */
        public Builder emulated(String kernel, EmulatedKernel twin) {
            twins.put(Objects.requireNonNull(kernel, "kernel"), Objects.requireNonNull(twin, "twin"));
            return this;
        }

        public KernelModule build() {
            return new KernelModule(this);
        }
    }
}
