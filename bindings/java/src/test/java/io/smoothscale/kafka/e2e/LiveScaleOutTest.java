package io.smoothscale.kafka.e2e;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our assignor inside a live Kafka Streams application on a real broker ({@link CountApp}: a keyed count with a
 * changelogged store over 12 input partitions, one standby, exactly-once), scaled out from 2 to 4 instances in
 * this JVM while a producer writes. {@code acceptable.recovery.lag} is 10 records, so the new instances are not
 * caught up: kip441 warms replicas up on them (sent to Kafka as standbys, beyond the one standby per task) and
 * asks for a follow-up rebalance. At the end every key's count equals what was produced (read committed), every
 * task has one active as the instances report, and every assignment our assignor handed Kafka placed each
 * task's active once. The same run with Kafka's default assignor (no {@code task.assignor.class}), on the same
 * broker and load, must keep the same counts and end with one active per task.
 */
@Timeout(300)
class LiveScaleOutTest extends OnRealBroker {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kip441", "kafka"})
    void scaleOutFromTwoToFourKeepsEveryCountExactAndEveryTaskActiveOnce(final String assignor) throws Exception {
        final String app = "smoothscale-e2e-" + assignor + "-" + UUID.randomUUID();
        final List<KafkaStreams> instances = new ArrayList<>();
        RecordingAssignor.REBALANCES.clear();
        try (Workload load = new Workload(broker.bootstrap(), app)) {
            for (int i = 0; i < 2; i++) {
                instances.add(start(app, load, assignor));
            }
            Workload.waitFor(Duration.ofSeconds(60), () -> allRunning(instances), "two instances running");
            load.producePhase();
            for (int i = 0; i < 2; i++) {
                instances.add(start(app, load, assignor));
            }
            load.producePhase();
            load.awaitExactCounts(Duration.ofSeconds(90));
            Workload.waitFor(Duration.ofSeconds(60), () -> allRunning(instances) && oneActiveEach(instances),
                "one active per task");
            System.out.println("live scale-out (" + assignor + "): " + load.producedTotal()
                + " records counted exactly once; " + RecordingAssignor.REBALANCES.size() + " assignments by smoothscale");
        } finally {
            for (final KafkaStreams streams : instances) {
                streams.close(Duration.ofSeconds(20));
            }
        }
        if (assignor.equals("kafka")) {
            assertTrue(RecordingAssignor.REBALANCES.isEmpty(), "ours ran instead of Kafka's default");
            return;
        }
        assertFalse(RecordingAssignor.REBALANCES.isEmpty(), "our assignor was never called");
        for (final RecordingAssignor.Rebalance r : RecordingAssignor.REBALANCES) {
            assertTrue(r.oneActivePerTask(), "not one active per task: " + r.assignment().assignment());
        }
        assertTrue(RecordingAssignor.REBALANCES.stream().anyMatch(r -> r.warmups() > 0 && r.followup()),
            "no rebalance sent warm-ups (standbys beyond one per task) with a follow-up deadline");
    }

    private static KafkaStreams start(final String app, final Workload load, final String assignor) throws Exception {
        final String stateDir = Files.createTempDirectory("smoothscale-e2e-state").toString();
        final KafkaStreams streams = new KafkaStreams(CountApp.topology(load.input(), load.output()),
            CountApp.config(broker.bootstrap(), app, stateDir, assignor));
        streams.start();
        return streams;
    }

    private static boolean allRunning(final List<KafkaStreams> instances) {
        return instances.stream().allMatch(s -> s.state() == KafkaStreams.State.RUNNING);
    }

    /** Every task is active on exactly one instance, as the instances themselves report. */
    private static boolean oneActiveEach(final List<KafkaStreams> instances) {
        final List<TaskId> actives = new ArrayList<>();
        for (final KafkaStreams s : instances) {
            for (final ThreadMetadata t : s.metadataForLocalThreads()) {
                t.activeTasks().forEach(task -> actives.add(task.taskId()));
            }
        }
        return actives.size() == Workload.PARTITIONS && new HashSet<>(actives).size() == Workload.PARTITIONS;
    }
}
