package io.smoothscale.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads {@code libsmoothscale_jni} once per JVM, as Kafka Streams' RocksDB does: from
 * {@code java.library.path} if it is there, otherwise from inside this jar (extracted to a temporary file).
 */
final class NativeLibrary {
    /** The library's name for {@link System#loadLibrary}. */
    static final String NAME = "smoothscale_jni";

    private static boolean loaded;

    private NativeLibrary() {
    }

    /** Loads the library, or throws an {@link UnsatisfiedLinkError} saying where it looked. */
    static synchronized void load() {
        if (loaded) {
            return;
        }
        try {
            System.loadLibrary(NAME);
        } catch (final UnsatisfiedLinkError notOnPath) {
            final String resource = resourcePath();
            try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new UnsatisfiedLinkError("smoothscale: no " + System.mapLibraryName(NAME)
                        + " on java.library.path (" + System.getProperty("java.library.path") + ") and no "
                        + resource + " in the jar: this platform is not packaged");
                }
                final Path file = Files.createTempFile("libsmoothscale_jni", ".so");
                file.toFile().deleteOnExit();
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toAbsolutePath().toString());
            } catch (final IOException e) {
                throw new UnsatisfiedLinkError("smoothscale: cannot extract " + resource + ": " + e.getMessage());
            }
        }
        loaded = true;
    }

    /** Where the build packs the library for this operating system and architecture. */
    static String resourcePath() {
        final String osName = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        final String os = osName.startsWith("linux") ? "linux" : osName.replace(' ', '-');
        final String arch = switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> "x86-64";
            case "aarch64", "arm64" -> "aarch64";
            default -> System.getProperty("os.arch", "unknown");
        };
        return "/io/smoothscale/kafka/native/" + os + "-" + arch + "/" + System.mapLibraryName(NAME);
    }
}
