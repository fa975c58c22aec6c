package io.smoothscale.kafka.e2e;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node KRaft broker on loopback, started and stopped by {@code e2e/broker/broker.sh} (Kafka's
 * own server from the {@code kafka_2.13} artifact). The script bounds the broker's life, so a crashed test
 * leaves nothing running.
 */
final class Broker implements AutoCloseable {
    private static final Path SCRIPT = Path.of(System.getProperty("smoothscale.repo", "../..")).toAbsolutePath()
        .normalize().resolve("e2e/broker/broker.sh");

    private final Path dir;
    private final String bootstrap;

    private Broker(final Path dir, final String bootstrap) {
        this.dir = dir;
        this.bootstrap = bootstrap;
    }

    /** Starts a broker on a free port pair, waiting at most two minutes. */
    static Broker start() throws IOException, InterruptedException {
        final Path dir = Files.createTempDirectory("smoothscale-broker");
        final int port = freePortPair();
        final Process p = new ProcessBuilder("bash", SCRIPT.toString(), "start", dir.toString(), Integer.toString(port), "600")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            run("stop", dir);
            throw new IllegalStateException("the broker did not start within 120 s");
        }
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0) {
            throw new IllegalStateException("broker.sh start failed (exit " + p.exitValue() + "): " + out);
        }
        return new Broker(dir, out.lines().reduce((a, b) -> b).orElseThrow());
    }

    /** host:port of the broker's listener. */
    String bootstrap() {
        return bootstrap;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("stop", dir);
    }

    private static void run(final String command, final Path dir) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder("bash", SCRIPT.toString(), command, dir.toString())
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
    }

    /** A port whose successor (the controller's) is free too. */
    private static int freePortPair() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            final int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            try (ServerSocket next = new ServerSocket(port + 1)) {
                return port;
            } catch (final IOException taken) {
                // try another pair
            }
        }
        throw new IOException("no two consecutive free ports on loopback");
    }
}
