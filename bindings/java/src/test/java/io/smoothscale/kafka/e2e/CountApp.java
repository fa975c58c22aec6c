package io.smoothscale.kafka.e2e;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The end-to-end tests' stateful Streams application: a keyed count of the input topic with a changelogged
 * store, written to the output topic, exactly once, one standby; each record may cost its thread a fixed wait
 * ({@link ProcessingCost}), which bounds what an instance processes. {@link #main} runs one instance as its own
 * process (so a test can kill it without a clean shutdown): it prints {@code RUNNING} when Kafka Streams is
 * running, closes cleanly and leaves the group when its standard input ends, and exits on its own after a
 * lifetime.
 */
public final class CountApp {
    /** {@code acceptable.recovery.lag}: records. */
    static final long ACCEPTABLE_RECOVERY_LAG = 100;
    /** {@code max.warmup.replicas}: every move of the scale-out warms up in one round (Kafka's default is 2). */
    static final int MAX_WARMUP_REPLICAS = 12;
    /** {@code probing.rebalance.interval.ms}: the least Kafka allows (its default is 10 minutes). */
    static final long PROBING_MS = 60_000;
    /** {@code session.timeout.ms}: a killed instance is noticed after this (Kafka's default is 45 s). */
    static final int SESSION_TIMEOUT_MS = 6_000;
    /** {@code commit.interval.ms}. */
    static final int COMMIT_INTERVAL_MS = 100;

    private CountApp() {
    }

    /** The topology: count per key (each record paying {@code cost} first), counts to {@code output}. */
    static Topology topology(final String input, final String output, final ProcessingCost cost) {
        final StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
            .peek((key, value) -> cost.pay())
            .groupByKey()
            .count(Materialized.as("counts"))
            .toStream()
            .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    /**
     * The instance's configuration.
     *
     * @param assignor {@code kafka} for Kafka's default assignor, else a smoothscale strategy name
     */
    static Properties config(final String bootstrap, final String app, final String stateDir, final String assignor) {
        final Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
        p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, ACCEPTABLE_RECOVERY_LAG);
        p.put(StreamsConfig.MAX_WARMUP_REPLICAS_CONFIG, MAX_WARMUP_REPLICAS);
        p.put(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS_CONFIG, PROBING_MS);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL_MS);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), SESSION_TIMEOUT_MS);
        p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 1_000);
        if (!assignor.equals("kafka")) {
            p.put(StreamsConfig.TASK_ASSIGNOR_CLASS_CONFIG, RecordingAssignor.class.getName());
            p.put("smoothscale.strategy", assignor);
        }
        return p;
    }

    /**
     * Runs one instance: {@code bootstrap app input output stateDir assignor lifetimeSeconds}, then any further
     * Streams settings as {@code key=value}, among which the processing cost ({@link ProcessingCost#SETTING}).
     *
     * @param args as above
     */
    public static void main(final String[] args) throws Exception {
        final Properties config = config(args[0], args[1], args[4], args[5]);
        for (int i = 7; i < args.length; i++) {
            final String[] setting = args[i].split("=", 2);
            config.put(setting[0], setting[1]);
        }
        final KafkaStreams streams = new KafkaStreams(topology(args[2], args[3], ProcessingCost.take(config)), config);
        streams.setStateListener((now, before) -> {
            Timeline.event("state", before + " " + now);
            if (now == KafkaStreams.State.RUNNING) {
                System.out.println("RUNNING");
                System.out.flush();
            }
        });
        Timeline.attach(streams);
        final long lifetime = Long.parseLong(args[6]);
        Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "lifetime");
            t.setDaemon(true);
            return t;
        }).schedule(() -> Runtime.getRuntime().halt(3), lifetime, TimeUnit.SECONDS);
        streams.start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            while (in.readLine() != null) {
                // Standard input ends when the test asks for a clean stop.
            }
        }
        // A graceful stop leaves the group at once; a plain close() would not (Kafka Streams keeps its members in
        // the group across a close), and the group would notice only after session.timeout.ms.
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
            .withTimeout(Duration.ofSeconds(20)));
        System.out.println("STOPPED");
        System.exit(0);
    }
}
