package io.smoothscale.kafka.bench;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.smoothscale.kafka.NativeBridge;
import io.smoothscale.kafka.SmoothscaleTaskAssignor;
import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.CrossingState;
import io.smoothscale.kafka.testkit.LagTotals;
import io.smoothscale.kafka.testkit.Labeling;
import io.smoothscale.kafka.testkit.LegacyInput;
import io.smoothscale.kafka.testkit.Outcome;
import io.smoothscale.kafka.testkit.SpecApplicationState;

import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor;

/**
 * The speed benchmark of issue 13: on {@code smoothscale generate} presets, Kafka's
 * {@code HighAvailabilityTaskAssignor} (legacy interface, its {@code ClientState}s built untimed), our
 * {@code kip441} through the adapter ({@code new SmoothscaleTaskAssignor().assign(applicationState)},
 * conversion both ways included; the {@code ApplicationState}'s streams states are built before the
 * clock starts, as Kafka builds them before calling the assignor) and the core alone
 * ({@code NativeBridge.timeNativeAssign}), and between the two {@code NativeBridge.assign} on the
 * preset's message (the JNI call: decode, assign, check, plan encode; no Java-side conversion), to
 * show where the adapter's time goes. Each Kafka run has a deadline and is reported "timed out"
 * past it. Prints a Markdown table and writes it to {@code target/bench.md}.
 *
 * <p>Run: {@code mvn -q -f bindings/java/pom.xml test-compile exec:java
 * -Dexec.mainClass=io.smoothscale.kafka.bench.AssignBench -Dexec.classpathScope=test}; options
 * {@code -Dsmoothscale.bench.presets} (comma-separated, both presets; not {@code exec.args}, which
 * would also reach the pom's cargo execution), {@code -Dsmoothscale.bench.seed} (1),
 * {@code -Dsmoothscale.bench.runs} (measured runs of ours and of the core, 10), {@code -Dsmoothscale.bench.warmups}
 * (unmeasured runs before them, so the JIT has compiled the adapter as in a long-running leader, 30),
 * {@code -Dsmoothscale.bench.kafka.timeout.s} (180).
 */
public final class AssignBench {
    private static final String PRESETS = "1000t_1000c,10000t_1000c";
    /** Kafka is run again while its runs so far took less than this, up to three runs. */
    private static final double KAFKA_REPEAT_BELOW_S = 20;

    private AssignBench() {
    }

    /** Runs the benchmark (options are system properties, see above). */
    public static void main(final String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        final long seed = Long.getLong("smoothscale.bench.seed", 1L);
        final int runs = Integer.getInteger("smoothscale.bench.runs", 10);
        final int warmups = Integer.getInteger("smoothscale.bench.warmups", 30);
        final long timeout = Long.getLong("smoothscale.bench.kafka.timeout.s", 180L);
        final List<String> presets = Arrays.asList(System.getProperty("smoothscale.bench.presets", PRESETS).split(","));
        final StringBuilder table = new StringBuilder();
        table.append("Kafka Streams 4.4.0 HighAvailabilityTaskAssignor vs smoothscale kip441 (seed ").append(seed)
            .append("; ours: median of ").append(runs).append(" runs after ").append(warmups)
            .append(" warm-ups; native: mean of ").append(runs).append(" runs after as many warm-ups; Kafka: median of up to 3 runs, a run with a ").append(timeout)
            .append(" s deadline)\n\n")
            .append("| preset | Kafka HATA | ours through the adapter | of which Kafka's accessors | "
                + "NativeBridge.assign | native core | Kafka / ours | ours / native | ours without Kafka's accessors / native "
                + "| same assignment as Kafka |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        final ExecutorService kafkaThread = kafkaThread();
        for (final String preset : presets) {
            final byte[] message = NativeBridge.generatePreset(preset, seed);
            final AppSpec spec = CrossingState.decode(message);
            final Labeling labeling = Labeling.of(spec, seed, null);
            final Map<Integer, Map<TaskId, Long>> lags = new HashMap<>();
            for (int rank = 0; rank < spec.clients().size(); rank++) {
                lags.put(rank, LagTotals.of(spec, labeling, rank));
            }
            System.out.printf("%s: %d tasks, %d clients, %d bytes%n", preset, spec.tasks().size(),
                spec.clients().size(), message.length);

            NativeBridge.timeNativeAssign("kip441", message, runs);
            final double nativeS = NativeBridge.timeNativeAssign("kip441", message, runs) / 1e9 / runs;
            System.out.printf("  native core: %.4f s%n", nativeS);

            final List<Double> bridgeTimes = new ArrayList<>();
            for (int run = 0; run < warmups + runs; run++) {
                final long start = System.nanoTime();
                NativeBridge.assign("kip441", message);
                if (run >= warmups) {
                    bridgeTimes.add((System.nanoTime() - start) / 1e9);
                }
            }
            final double bridgeS = median(bridgeTimes);
            System.out.printf("  NativeBridge.assign: %.4f s%n", bridgeS);

            final List<Double> oursTimes = new ArrayList<>();
            Outcome ours = null;
            for (int run = 0; run < warmups + runs; run++) {
                final SpecApplicationState app = new SpecApplicationState(spec, labeling, lags);
                app.kafkaStreamsStates(true);
                final SmoothscaleTaskAssignor assignor = new SmoothscaleTaskAssignor();
                final long start = System.nanoTime();
                final var assignment = assignor.assign(app);
                final double seconds = (System.nanoTime() - start) / 1e9;
                if (run >= warmups) {
                    oursTimes.add(seconds);
                }
                ours = Outcome.of(assignment, labeling, spec.clients().size());
            }
            final double oursS = median(oursTimes);
            System.out.printf("  ours through the adapter: %.4f s (runs %s)%n", oursS, oursTimes);

            // The adapter reads each client's reported tasks through Kafka's own accessors:
            // KafkaStreamsState.prevTasksByLag (a lag-sorted TreeSet, two lag lookups per comparison), then
            // lagFor on each reported task (a TreeMap of every stateful task per client, as Kafka keeps it).
            // Time those calls alone, on fresh states, to separate Kafka's accessor cost from ours.
            final List<Double> accessorTimes = new ArrayList<>();
            long reported = 0;
            for (int run = 0; run < warmups + runs; run++) {
                final SpecApplicationState app = new SpecApplicationState(spec, labeling, lags);
                final var states = app.kafkaStreamsStates(true).values();
                final long start = System.nanoTime();
                reported = 0;
                for (final var state : states) {
                    for (final String consumer : state.consumerClientIds()) {
                        for (final TaskId task : state.prevTasksByLag(consumer)) {
                            reported += state.lagFor(task) == Long.MIN_VALUE ? 0 : 1;
                        }
                    }
                }
                if (run >= warmups) {
                    accessorTimes.add((System.nanoTime() - start) / 1e9);
                }
            }
            final double accessorS = median(accessorTimes);
            System.out.printf("  Kafka's accessors alone: %.4f s (%d reported tasks)%n", accessorS, reported);

            final List<Double> kafkaTimes = new ArrayList<>();
            Outcome kafka = null;
            boolean timedOut = false;
            while (kafkaTimes.size() < 3 && kafkaTimes.stream().mapToDouble(Double::doubleValue).sum() < KAFKA_REPEAT_BELOW_S) {
                final LegacyInput input = new LegacyInput(spec, labeling, lags);
                final Future<Outcome> run = kafkaThread.submit(() -> input.run(new HighAvailabilityTaskAssignor()));
                final long start = System.nanoTime();
                try {
                    kafka = run.get(timeout, TimeUnit.SECONDS);
                    kafkaTimes.add((System.nanoTime() - start) / 1e9);
                } catch (final TimeoutException e) {
                    run.cancel(true);
                    timedOut = true;
                    break;
                } catch (final ExecutionException e) {
                    throw new IllegalStateException("Kafka's assignor failed on " + preset, e.getCause());
                }
            }
            final String kafkaCell = timedOut ? "timed out (> " + timeout + " s)"
                : String.format("%.3f s", median(kafkaTimes));
            System.out.printf("  Kafka HATA: %s (runs %s)%n", kafkaCell, kafkaTimes);
            table.append(String.format("| %s (%d × %d) | %s | %.4f s | %.4f s | %.4f s | %.4f s | %s | %.2f | %.2f | %s |%n",
                preset, spec.tasks().size(), spec.clients().size(), kafkaCell, oursS, accessorS, bridgeS, nativeS,
                timedOut ? "> " + Math.round(timeout / oursS) : String.format("%.0f×", median(kafkaTimes) / oursS),
                oursS / nativeS, (oursS - accessorS) / nativeS, timedOut ? "not known" : kafka.equals(ours) ? "yes" : "no"));
            if (timedOut) {
                break;
            }
        }
        System.out.println();
        System.out.println(table);
        final Path out = targetDir().resolve("bench.md");
        Files.writeString(out, table.toString());
        System.out.println("written to " + out);
    }

    private static double median(final List<Double> values) {
        final List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    /** One daemon thread for Kafka's runs, so a run past its deadline does not keep the JVM alive. */
    static ExecutorService kafkaThread() {
        return Executors.newSingleThreadExecutor(runnable -> {
            final Thread thread = new Thread(runnable, "kafka-hata");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The module's {@code target} directory: the parent of the test classes this runs from. */
    static Path targetDir() throws URISyntaxException, IOException {
        final Path classes = Path.of(AssignBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final Path target = classes.getParent();
        Files.createDirectories(target);
        return target;
    }
}
