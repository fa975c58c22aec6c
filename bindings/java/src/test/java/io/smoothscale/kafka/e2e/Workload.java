package io.smoothscale.kafka.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The end-to-end tests' load and check: the input and output topics, a producer writing every key the same
 * number of times per phase (remembering what it wrote), and the counts the application committed.
 */
final class Workload implements AutoCloseable {
    /** Input partitions, hence tasks. */
    static final int PARTITIONS = 12;
    private static final int KEYS = 40;
    private static final int PER_KEY_PER_PHASE = 100;

    private final String bootstrap;
    private final String output;
    private final String input;
    private final KafkaProducer<String, String> producer;
    private final Map<String, Long> produced = new TreeMap<>();

    /** Creates {@code app-in} and {@code app-out} with {@link #PARTITIONS} partitions each. */
    Workload(final String bootstrap, final String app) throws Exception {
        this.bootstrap = bootstrap;
        this.input = app + "-in";
        this.output = app + "-out";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(input, PARTITIONS, (short) 1), new NewTopic(output, PARTITIONS, (short) 1)))
                .all().get();
        }
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all"),
            new StringSerializer(), new StringSerializer());
    }

    String input() {
        return input;
    }

    String output() {
        return output;
    }

    /** Writes one phase: every key {@value #PER_KEY_PER_PHASE} times. */
    void producePhase() {
        for (int n = 0; n < PER_KEY_PER_PHASE; n++) {
            for (int k = 0; k < KEYS; k++) {
                final String key = "key-" + k;
                producer.send(new ProducerRecord<>(input, key, Integer.toString(n)));
                produced.merge(key, 1L, Long::sum);
            }
        }
        producer.flush();
    }

    /** Records written so far. */
    long producedTotal() {
        return produced.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Waits until every key's committed count equals what was produced. */
    void awaitExactCounts(final Duration limit) throws InterruptedException {
        waitFor(limit, () -> produced.equals(counts()), "every count equal to what was produced");
    }

    /** The last committed count per key in the output topic. */
    Map<String, Long> counts() {
        final Map<String, Long> last = new TreeMap<>();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new LongDeserializer())) {
            final List<TopicPartition> parts = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                parts.add(new TopicPartition(output, p));
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

    /** Polls {@code condition} every 250 ms; fails the test naming {@code what} after {@code limit}. */
    static void waitFor(final Duration limit, final BooleanSupplier condition, final String what)
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

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
