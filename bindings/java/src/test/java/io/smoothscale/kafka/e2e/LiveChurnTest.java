package io.smoothscale.kafka.e2e;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A crash, a restart and a graceful stop on a real broker, with instances as their own processes: three
 * {@link CountApp} instances under load; one is killed (SIGKILL: no commit, no leave-group) and later restarted
 * on the state it left; then another is stopped cleanly. Run with our {@code kip441} and with Kafka's default
 * assignor, on the same broker and the same load. Every key's committed count must equal what was produced;
 * with ours, every assignment handed to Kafka must place each task's active once. The run's timeline
 * (rebalances, restorations and the records they restored, unavailability per task) is written to
 * {@code target/e2e/churn-ASSIGNOR.json}.
 */
@Timeout(300)
class LiveChurnTest extends OnRealBroker {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kip441", "kafka"})
    void crashRestartAndGracefulStopKeepEveryCountExact(final String assignor) throws Exception {
        final String app = "smoothscale-churn-" + assignor + "-" + UUID.randomUUID();
        final List<Instance> instances = new ArrayList<>();
        try (Workload load = new Workload(broker.bootstrap(), app)) {
            for (int i = 0; i < 3; i++) {
                instances.add(Instance.start(broker.bootstrap(), app, load.input(), load.output(), assignor));
            }
            for (final Instance instance : instances) {
                instance.awaitRunning(Duration.ofSeconds(90));
            }
            final long start = System.currentTimeMillis();
            load.producePhase();
            load.awaitExactCounts(Duration.ofSeconds(60));
            instances.get(0).crash();
            load.producePhase();
            load.awaitExactCounts(Duration.ofSeconds(90));
            instances.get(0).restart();
            instances.get(0).awaitRunning(Duration.ofSeconds(90));
            load.producePhase();
            instances.get(1).stop();
            load.producePhase();
            load.awaitExactCounts(Duration.ofSeconds(90));
            final long end = System.currentTimeMillis();
            final List<TimelineReport.Event> events = new ArrayList<>();
            for (int i = 0; i < instances.size(); i++) {
                events.addAll(instances.get(i).events("i" + i));
            }
            final Path report = Path.of("target", "e2e", "churn-" + assignor + ".json");
            TimelineReport.write(report, "3 instances; i0 killed, restarted; i1 stopped", assignor, events, start, end,
                IntStream.range(0, Workload.PARTITIONS).mapToObj(p -> "0_" + p).toList());
            System.out.println("live churn (" + assignor + "): " + load.producedTotal()
                + " records counted exactly once through a crash, a restart and a graceful stop; timeline in " + report);
        } finally {
            for (final Instance instance : instances) {
                instance.stop();
            }
        }
        if (assignor.equals("kafka")) {
            return;
        }
        final List<String> assignments = new ArrayList<>();
        for (final Instance instance : instances) {
            instance.output().stream().filter(l -> l.startsWith("ASSIGNMENT")).forEach(assignments::add);
        }
        assertFalse(assignments.isEmpty(), "our assignor was never called");
        assertTrue(assignments.stream().allMatch(l -> l.contains("one-active=true")), String.join("\n", assignments));
    }
}
