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
import org.apache.kafka.clients.admin.OffsetSpec;
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
 * The end-to-end tests' load and check: the input and output topics, a producer (a preload, then a steady rate
 * from a background thread) that remembers what it wrote per key, the counts the application committed, and the
 * size of the application's changelog.
 */
final class Workload implements AutoCloseable {
    /** Input partitions, hence tasks. */
    static final int PARTITIONS = 12;
    /** Distinct keys, written in turn. */
    static final int KEYS = 1_200;

    private final String bootstrap;
    private final String output;
    private final String input;
    private final String changelog;
    private final Admin admin;
    private final KafkaProducer<String, String> producer;
    private final Map<String, Long> produced = new TreeMap<>();
    private long written;
    private final java.util.concurrent.atomic.AtomicLong sendErrors = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicReference<String> firstSendError =
        new java.util.concurrent.atomic.AtomicReference<>();
    private Thread steady;
    private volatile boolean producing;

    /** Creates {@code app-in} and {@code app-out} with {@link #PARTITIONS} partitions each. */
    Workload(final String bootstrap, final String app) throws Exception {
        this.bootstrap = bootstrap;
        this.input = app + "-in";
        this.output = app + "-out";
        this.changelog = app + "-counts-changelog";
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        admin.createTopics(List.of(new NewTopic(input, PARTITIONS, (short) 1), new NewTopic(output, PARTITIONS, (short) 1)))
            .all().get();
        // Not idempotent: a second idempotent producer in one test JVM, on a fresh broker, was seen to have its
        // first batches refused as out of sequence (OutOfOrderSequenceException for producer id 0) until they
        // expired. One request in flight keeps the order; every run checks that the input topic holds exactly
        // what was written, so a duplicate from a retry would fail the test, not pass unseen.
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1), new StringSerializer(), new StringSerializer());
    }

    String input() {
        return input;
    }

    String output() {
        return output;
    }

    /** Writes {@code records} records now, keys in turn, once every input partition has a leader. */
    void preload(final int records) throws InterruptedException {
        waitFor(Duration.ofSeconds(30), () -> producer.partitionsFor(input).stream().filter(p -> p.leader() != null)
            .count() == PARTITIONS, "a leader for every input partition");
        for (int n = 0; n < records; n++) {
            send();
        }
        producer.flush();
        assertTrue(sendErrors.get() == 0, sendErrors.get() + " records not written; first: " + firstSendError.get());
    }

    /** Writes {@code perSecond} records a second from a background thread, in batches every 100 ms. */
    void startProducing(final int perSecond) {
        producing = true;
        steady = new Thread(() -> {
            long next = System.nanoTime();
            while (producing) {
                for (int n = 0; n < perSecond / 10; n++) {
                    send();
                }
                next += 100_000_000L;
                final long wait = next - System.nanoTime();
                if (wait > 0) {
                    try {
                        Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                    } catch (final InterruptedException e) {
                        return;
                    }
                }
            }
        }, "steady-producer");
        steady.setDaemon(true);
        steady.start();
    }

    /** Stops the background producer and waits until all it wrote is acknowledged. */
    void stopProducing() throws InterruptedException {
        producing = false;
        if (steady != null) {
            steady.join(10_000);
        }
        producer.flush();
    }

    private synchronized void send() {
        final String key = "key-" + (written++ % KEYS);
        producer.send(new ProducerRecord<>(input, key, "1"), (metadata, e) -> {
            if (e != null) {
                sendErrors.incrementAndGet();
                firstSendError.compareAndSet(null, e.toString());
            }
        });
        produced.merge(key, 1L, Long::sum);
    }

    /** Records written so far. */
    synchronized long producedTotal() {
        return written;
    }

    private synchronized Map<String, Long> producedCopy() {
        return new TreeMap<>(produced);
    }

    /** Waits until every key's committed count equals what was produced. */
    void awaitExactCounts(final Duration limit) throws InterruptedException {
        Map<String, Long> counted = Map.of();
        final long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            counted = counts();
            if (producedCopy().equals(counted)) {
                return;
            }
            Thread.sleep(250);
        }
        final Map<String, Long> wanted = producedCopy();
        final Map<String, Long> last = counted;
        final List<String> differing = wanted.keySet().stream().filter(k -> !wanted.get(k).equals(last.get(k))).toList();
        final String example = differing.stream().findFirst()
            .map(k -> k + " produced " + wanted.get(k) + ", counted " + last.get(k)).orElse("-");
        assertTrue(false, "counts not exact within " + limit + ": " + differing.size() + " of " + wanted.size()
            + " keys differ (" + example + "); " + last.values().stream().mapToLong(Long::longValue).sum()
            + " of " + producedTotal() + " records counted; send errors " + sendErrors.get() + " (first: "
            + firstSendError.get() + ")");
    }

    /** The application changelog's records (its partitions' end offsets, summed; 0 before it exists). */
    long changelogRecords() throws Exception {
        return endOffsets(changelog);
    }

    /** The input topic's records (its partitions' end offsets, summed): what the broker took from the producer. */
    long inputRecords() throws Exception {
        return endOffsets(input);
    }

    private long endOffsets(final String topic) throws Exception {
        final Map<TopicPartition, OffsetSpec> latest = new TreeMap<>((a, b) -> Integer.compare(a.partition(), b.partition()));
        for (int p = 0; p < PARTITIONS; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        try {
            return admin.listOffsets(latest).all().get().values().stream().mapToLong(i -> i.offset()).sum();
        } catch (final java.util.concurrent.ExecutionException notYet) {
            return 0;
        }
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
    public void close() throws InterruptedException {
        producing = false;
        if (steady != null) {
            steady.join(10_000);
        }
        producer.close(Duration.ofSeconds(10));
        admin.close(Duration.ofSeconds(10));
    }
}
