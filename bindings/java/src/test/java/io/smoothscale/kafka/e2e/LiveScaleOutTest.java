package io.smoothscale.kafka.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment.AssignedTask;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Our assignor inside a live Kafka Streams application on a real broker: a keyed count with a changelogged
 * store over 12 input partitions (12 tasks), one standby, exactly-once processing, scaled out from 2 to 4
 * instances while a producer writes. {@code acceptable.recovery.lag} is 10 records, so the new instances are
 * not caught up: kip441 keeps the actives where their state is and warms replicas up on the new instances
 * (sent to Kafka as standbys, beyond the one standby per task), asking for a follow-up rebalance. At the end
 * every key's count equals what was produced (read committed), every task has one active, and every
 * assignment our assignor handed Kafka placed each task's active once.
 */
@Timeout(240)
class LiveScaleOutTest {
    private static final int PARTITIONS = 12;
    private static final int KEYS = 40;
    private static final int PER_KEY_PER_PHASE = 100;
    private static Broker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = Broker.start();
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void scaleOutFromTwoToFourKeepsEveryCountExactAndEveryTaskActiveOnce() throws Exception {
        final String app = "smoothscale-e2e-" + UUID.randomUUID();
        final String input = app + "-in";
        final String output = app + "-out";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(input, PARTITIONS, (short) 1), new NewTopic(output, PARTITIONS, (short) 1)))
                .all().get();
        }
        final List<KafkaStreams> instances = new ArrayList<>();
        final Map<String, Long> produced = new TreeMap<>();
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < 2; i++) {
                instances.add(start(app, input, output));
            }
            waitFor(Duration.ofSeconds(60), () -> allRunning(instances), "two instances running");
            produce(producer, input, produced);
            for (int i = 0; i < 2; i++) {
                instances.add(start(app, input, output));
            }
            produce(producer, input, produced);
            waitFor(Duration.ofSeconds(90), () -> produced.equals(counts(output)), "every count exact");
            waitFor(Duration.ofSeconds(60), () -> allRunning(instances) && oneActiveEach(instances), "one active per task");
        } finally {
            for (final KafkaStreams streams : instances) {
                streams.close(Duration.ofSeconds(20));
            }
        }
        assertFalse(RecordingAssignor.REBALANCES.isEmpty(), "our assignor was never called");
        for (final RecordingAssignor.Rebalance r : RecordingAssignor.REBALANCES) {
            final Map<TaskId, Integer> actives = new HashMap<>();
            for (final KafkaStreamsAssignment a : r.assignment().assignment()) {
                for (final AssignedTask t : a.tasks().values()) {
                    if (t.type() == AssignedTask.Type.ACTIVE) {
                        actives.merge(t.id(), 1, Integer::sum);
                    }
                }
            }
            for (final TaskId t : r.tasks()) {
                assertEquals(1, actives.getOrDefault(t, 0), "active copies of " + t + " in " + r.assignment().assignment());
            }
        }
        final boolean warmedUp = RecordingAssignor.REBALANCES.stream().anyMatch(r -> {
            final long replicas = r.assignment().assignment().stream()
                .flatMap(a -> a.tasks().values().stream())
                .filter(t -> t.type() == AssignedTask.Type.STANDBY).count();
            final boolean followup = r.assignment().assignment().stream()
                .anyMatch(a -> a.followupRebalanceDeadline().isPresent());
            return replicas > r.tasks().size() && followup;
        });
        assertTrue(warmedUp, "no rebalance sent warm-ups (standbys beyond one per task) with a follow-up deadline");
        System.out.println("live scale-out: " + produced.values().stream().mapToLong(Long::longValue).sum()
            + " records counted exactly once; " + RecordingAssignor.REBALANCES.size() + " assignments by smoothscale kip441");
    }

    private static KafkaStreams start(final String app, final String input, final String output) throws Exception {
        final StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
            .groupByKey()
            .count(Materialized.as("counts"))
            .toStream()
            .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        final Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
        p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, 10L);
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("smoothscale-e2e-state").toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(StreamsConfig.TASK_ASSIGNOR_CLASS_CONFIG, RecordingAssignor.class.getName());
        p.put("smoothscale.strategy", "kip441");
        final KafkaStreams streams = new KafkaStreams(builder.build(), p);
        streams.start();
        return streams;
    }

    private static KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all"),
            new StringSerializer(), new StringSerializer());
    }

    private static void produce(final KafkaProducer<String, String> producer, final String topic,
                                final Map<String, Long> produced) {
        for (int n = 0; n < PER_KEY_PER_PHASE; n++) {
            for (int k = 0; k < KEYS; k++) {
                final String key = "key-" + k;
                producer.send(new ProducerRecord<>(topic, key, Integer.toString(n)));
                produced.merge(key, 1L, Long::sum);
            }
        }
        producer.flush();
    }

    /** The last committed count per key in the output topic. */
    private static Map<String, Long> counts(final String topic) {
        final Map<String, Long> last = new TreeMap<>();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new LongDeserializer())) {
            final List<TopicPartition> parts = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                parts.add(new TopicPartition(topic, p));
            }
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            final Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                for (final ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(200))) {
                    last.put(r.key(), r.value());
                }
            }
        }
        return last;
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
        final Set<TaskId> distinct = new HashSet<>(actives);
        return actives.size() == PARTITIONS && distinct.size() == PARTITIONS;
    }

    private static void waitFor(final Duration limit, final BooleanSupplier condition, final String what)
        throws InterruptedException {
        final long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(250);
        }
        assertTrue(condition.getAsBoolean(), "not reached within " + limit + ": " + what);
    }
}
