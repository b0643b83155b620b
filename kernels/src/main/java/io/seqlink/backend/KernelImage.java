package io.seqlink.backend;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Compiled device code of a {@link KernelModule}: a fat binary, a cubin or PTX text, as bytes or as a
 * classpath resource (the CUDA driver tells the three apart itself). A resource is read once, when a
 * CUDA device first loads the module; the emulated backend never reads it, so a build without nvcc can
 * still run the module's {@linkplain KernelModule.Builder#emulated emulated twins}.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class KernelImage {

    private final String name;
    /** The image's bytes, or {@code null} for a resource (then {@code resource} is set). */
    private final byte @Nullable [] bytes;
    private final @Nullable ClassLoader loader;
    private final @Nullable String resource;

    private KernelImage(String name, byte @Nullable [] bytes, @Nullable ClassLoader loader, @Nullable String resource) {
        this.name = name;
        this.bytes = bytes;
        this.loader = loader;
        this.resource = resource;
    }

    /**
     * An image held in memory. PTX text is NUL-terminated here if it is not already (the driver reads
     * it as a C string). {@code name} appears in errors.
     */
    public static KernelImage ofBytes(String name, byte[] image) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(image, "image");
        if (image.length == 0) {
            throw new IllegalArgumentException("image '" + name + "' is empty; pass the bytes of a fatbin, cubin or PTX file");
        }
        return new KernelImage(name, terminated(image.clone()), null, null);
    }

    /** An image read from the classpath resource {@code resource} (no leading slash) of this class's loader. */
    public static KernelImage ofResource(String resource) {
        return ofResource(KernelImage.class.getClassLoader(), resource);
    }

    /** An image read from the classpath resource {@code resource} of {@code loader} ({@code null}: the system loader). */
    public static KernelImage ofResource(@Nullable ClassLoader loader, String resource) {
        Objects.requireNonNull(resource, "resource");
        if (resource.startsWith("/")) {
            throw new IllegalArgumentException("resource '" + resource + "' must not start with '/' (a ClassLoader path)");
        }
        return new KernelImage(resource, null, loader, resource);
    }

    /** The resource path or the name given to {@link #ofBytes}. */
    public String name() {
        return name;
    }

    /** Whether the bytes can be had: always for {@link #ofBytes}; for a resource, whether it exists. */
    public boolean available() {
        return bytes != null || (loader != null ? loader.getResource(resource) : ClassLoader.getSystemResource(resource)) != null;
    }

    /**
     * The image's bytes (a copy). Throws {@link KernelsMissingException} naming the resource when it is
     * not on the classpath, e.g. because the module was built without nvcc.
     */
    public byte[] bytes() {
        if (bytes != null) {
            return bytes.clone();
        }
        String resource = Objects.requireNonNull(this.resource, "an image without bytes is a resource");
        try (InputStream in = loader != null ? loader.getResourceAsStream(resource) : ClassLoader.getSystemResourceAsStream(resource)) {
            if (in == null) {
                throw new KernelsMissingException(resource, "The kernel image '" + resource + "' is not on the classpath: "
                        + "the module that ships it was built without nvcc. Build it with the CUDA toolkit (nvcc on PATH, "
                        + "or NVCC=/path/to/nvcc), or run on the emulated backend (seqlink.backend=emulated; without Spring: BackendSelection.EMULATED).");
            }
            return terminated(in.readAllBytes());
        } catch (IOException ex) {
            throw new KernelsMissingException(resource, "The kernel image '" + resource + "' could not be read: " + ex.getMessage());
        }
    }

    /** PTX is text starting with a comment or a directive; it must end with a NUL for the driver. */
    private static byte[] terminated(byte[] image) {
        boolean text = image.length > 0 && (image[0] == '/' || image[0] == '.' || image[0] == '\n' || image[0] == ' ' || image[0] == '\t');
        if (!text || image[image.length - 1] == 0) {
            return image;
        }
        return Arrays.copyOf(image, image.length + 1);
    }

    @Override
    public String toString() {
        return "KernelImage[" + name + (bytes != null ? ", " + bytes.length + " bytes" : "") + "]";
    }
}
