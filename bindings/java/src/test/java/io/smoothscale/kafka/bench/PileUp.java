package io.smoothscale.kafka.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.smoothscale.kafka.SmoothscaleTaskAssignor;
import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.ClientSpec;
import io.smoothscale.kafka.testkit.LagTotals;
import io.smoothscale.kafka.testkit.Labeling;
import io.smoothscale.kafka.testkit.LegacyInput;
import io.smoothscale.kafka.testkit.Outcome;
import io.smoothscale.kafka.testkit.SpecApplicationState;
import io.smoothscale.kafka.testkit.TaskSpec;

import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor;

/**
 * Kafka's standby pile-up question, asked of Kafka's own {@code HighAvailabilityTaskAssignor}: N stateful
 * tasks (1,000,000 records each) on N single-thread clients, each client the previous active of one task,
 * one standby, no caught-up standby. Two inputs: each client reports only its own task (running), or also
 * a lag of 500,000 on every other task (equal lags). For each, the most standbys (warm-ups included) Kafka's
 * assignor puts on one client, under the labeling of seed 1 and under the labeling whose process ids hash in
 * ascending order, and whether our {@code kip441} through the adapter gives the same assignment. The same
 * inputs as the paper's section 7 table. Writes {@code target/pileup.md}.
 *
 * <p>Run: {@code mvn -q -f bindings/java/pom.xml test-compile exec:java
 * -Dexec.mainClass=io.smoothscale.kafka.bench.PileUp -Dexec.classpathScope=test}; options
 * {@code -Dsmoothscale.pileup.clients} (1000) and {@code -Dsmoothscale.pileup.timeout.s} (600, per Kafka run).
 */
public final class PileUp {
    private static final long RECORDS = 1_000_000L;
    private static final long EQUAL_LAG = 500_000L;

    private PileUp() {
    }

    /** Runs both inputs and writes the table (options are system properties, see above). */
    public static void main(final String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        final int n = Integer.getInteger("smoothscale.pileup.clients", 1000);
        final long timeout = Long.getLong("smoothscale.pileup.timeout.s", 600L);
        final ExecutorService kafkaThread = AssignBench.kafkaThread();
        final StringBuilder table = new StringBuilder();
        table.append("Kafka Streams 4.4.0 HighAvailabilityTaskAssignor on the pile-up inputs (").append(n)
            .append(" stateful tasks × ").append(n).append(" single-thread clients, one previous active each, one standby)\n\n")
            .append("| input | labeling | Kafka: most standbys and warm-ups on one client | Kafka: clients holding any | "
                + "ours (kip441 through the adapter): most on one client | same assignment as Kafka |\n"
                + "|---|---|---:|---:|---:|---|\n");
        for (final boolean equalLags : new boolean[] {false, true}) {
            final AppSpec spec = input(n, equalLags);
            final String name = equalLags ? "every other client " + EQUAL_LAG + " records behind on every task"
                : "own previous active only";
            for (final boolean ascending : new boolean[] {false, true}) {
                final Labeling labeling = ascending ? Labeling.ascending(spec) : Labeling.of(spec, 1L, null);
                final Map<Integer, Map<TaskId, Long>> lags = new HashMap<>();
                for (int rank = 0; rank < n; rank++) {
                    lags.put(rank, LagTotals.of(spec, labeling, rank));
                }
                final LegacyInput legacy = new LegacyInput(spec, labeling, lags);
                final Future<Outcome> run = kafkaThread.submit(() -> legacy.run(new HighAvailabilityTaskAssignor()));
                final long start = System.nanoTime();
                Outcome kafka;
                try {
                    kafka = run.get(timeout, TimeUnit.SECONDS);
                } catch (final TimeoutException e) {
                    run.cancel(true);
                    kafka = null;
                }
                final double seconds = (System.nanoTime() - start) / 1e9;
                final SpecApplicationState app = new SpecApplicationState(spec, labeling, lags);
                final Outcome ours = Outcome.of(new SmoothscaleTaskAssignor().assign(app), labeling, n);
                final String labelingName = ascending ? "process ids hashing in ascending order" : "seed 1";
                System.out.printf("%s, %s: Kafka %s (%.1f s), ours %d%n", name, labelingName,
                    kafka == null ? "timed out" : most(kafka) + " on one client", seconds, most(ours));
                table.append(String.format("| %s | %s | %s | %s | %d | %s |%n", name, labelingName,
                    kafka == null ? "timed out (> " + timeout + " s)" : String.valueOf(most(kafka)),
                    kafka == null ? "–" : String.valueOf(holding(kafka)), most(ours),
                    kafka == null ? "not known" : kafka.equals(ours) ? "yes" : "no"));
            }
        }
        System.out.println();
        System.out.println(table);
        final Path out = AssignBench.targetDir().resolve("pileup.md");
        Files.writeString(out, table.toString());
        System.out.println("written to " + out);
    }

    /** The input: client i ran task i and reports it running; with equal lags, every other task at 500,000. */
    static AppSpec input(final int n, final boolean equalLags) {
        final List<TaskSpec> tasks = new ArrayList<>(n);
        for (int t = 0; t < n; t++) {
            tasks.add(new TaskSpec(0, t, true, RECORDS, List.of(), List.of()));
        }
        final List<ClientSpec> clients = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            final SortedMap<Integer, Long> reported = new TreeMap<>();
            if (equalLags) {
                for (int t = 0; t < n; t++) {
                    reported.put(t, EQUAL_LAG);
                }
            }
            reported.put(c, AppSpec.RUNNING);
            clients.add(new ClientSpec(1, null, new TreeMap<>(), new TreeSet<>(List.of(c)), new TreeSet<>(), reported));
        }
        return new AppSpec(1, 10_000L, 2, 600_000L, List.of(), "none", tasks, clients);
    }

    private static int most(final Outcome outcome) {
        return outcome.clients().stream().mapToInt(tasks -> tasks.standby().size()).max().orElse(0);
    }

    private static long holding(final Outcome outcome) {
        return outcome.clients().stream().filter(tasks -> !tasks.standby().isEmpty()).count();
    }
}
