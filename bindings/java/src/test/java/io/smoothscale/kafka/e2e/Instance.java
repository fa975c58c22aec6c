package io.smoothscale.kafka.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One instance of {@link CountApp} as its own JVM process, on this test's class path: started, killed
 * (SIGKILL, no clean shutdown), stopped cleanly (its standard input closed) or restarted on the same state
 * directory. Its output goes to a log file per start; every process has a lifetime of its own.
 */
final class Instance {
    private static final long LIFETIME_S = 300;

    private final List<String> command;
    private final Path logs;
    private final List<Path> logFiles = new ArrayList<>();
    /** Timeline events the test itself saw: the moments the process was killed or stopped. */
    private final List<String> notes = new ArrayList<>();
    private Process process;

    private Instance(final List<String> command, final Path logs) {
        this.command = command;
        this.logs = logs;
    }

    /** Starts an instance with its own state directory and the further Streams {@code settings}. */
    static Instance start(final String bootstrap, final String app, final String input, final String output,
                          final String assignor, final Map<String, String> settings) throws IOException {
        final Path home = Files.createTempDirectory("smoothscale-e2e-instance");
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp",
            System.getProperty("java.class.path"),
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-Dorg.slf4j.simpleLogger.log.io.smoothscale=info",
            CountApp.class.getName(), bootstrap, app, input, output, home.resolve("state").toString(), assignor,
            Long.toString(LIFETIME_S)));
        new TreeMap<>(settings).forEach((k, v) -> command.add(k + "=" + v));
        final Instance instance = new Instance(List.copyOf(command), home);
        instance.launch();
        return instance;
    }

    private void launch() throws IOException {
        notes.add("EVENT " + System.currentTimeMillis() + " started");
        final Path log = logs.resolve("run-" + logFiles.size() + ".log");
        logFiles.add(log);
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Waits until this start of the instance printed {@code RUNNING}. */
    void awaitRunning(final Duration limit) throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + limit.toNanos();
        final Path log = logFiles.get(logFiles.size() - 1);
        while (System.nanoTime() < deadline) {
            if (Files.readAllLines(log).contains("RUNNING")) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("instance exited: " + String.join("\n", Files.readAllLines(log)));
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("instance not RUNNING within " + limit);
    }

    /** Kills the process: no clean shutdown, no commit, no leave-group. */
    void crash() throws InterruptedException {
        notes.add("EVENT " + System.currentTimeMillis() + " killed");
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts the instance again on the state it left on disk. */
    void restart() throws IOException {
        launch();
    }

    /** Closes Kafka Streams cleanly (the process's standard input ends), killing it after 60 s. */
    void stop() throws IOException, InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            crash();
        }
        notes.add("EVENT " + System.currentTimeMillis() + " stopped");
    }

    /** This instance's timeline events (its own and the test's kills and stops), named {@code name}. */
    List<TimelineReport.Event> events(final String name) throws IOException {
        final List<String> lines = output();
        lines.addAll(notes);
        return TimelineReport.events(name, lines);
    }

    /** Whether this start of the instance is running (not killed, stopped or exited). */
    boolean alive() {
        return process.isAlive();
    }

    /** The lines the current start of this instance printed so far. */
    List<String> currentOutput() throws IOException {
        return Files.readAllLines(logFiles.get(logFiles.size() - 1));
    }

    /** Every line every start of this instance printed. */
    List<String> output() throws IOException {
        final List<String> out = new ArrayList<>();
        for (final Path log : logFiles) {
            out.addAll(Files.readAllLines(log));
        }
        return out;
    }
}
