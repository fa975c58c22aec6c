package io.smoothscale.kafka.e2e;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The end-to-end tests' stateful Streams application: a keyed count of the input topic with a changelogged
 * store, written to the output topic, exactly once, one standby. {@link #main} runs one instance as its own
 * process (so a test can kill it without a clean shutdown): it prints {@code RUNNING} when Kafka Streams is
 * running, closes cleanly when its standard input ends, and exits on its own after a lifetime.
 */
public final class CountApp {
    private CountApp() {
    }

    /** The topology: count per key, counts to {@code output}. */
    static Topology topology(final String input, final String output) {
        final StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
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
        p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, 10L);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "classic");
        // A killed instance is noticed after the broker's minimum session timeout, not Kafka's 45 s default.
        p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 6_000);
        p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 1_000);
        if (!assignor.equals("kafka")) {
            p.put(StreamsConfig.TASK_ASSIGNOR_CLASS_CONFIG, RecordingAssignor.class.getName());
            p.put("smoothscale.strategy", assignor);
        }
        return p;
    }

    /**
     * Runs one instance: {@code bootstrap app input output stateDir assignor lifetimeSeconds}.
     *
     * @param args as above
     */
    public static void main(final String[] args) throws Exception {
        final KafkaStreams streams = new KafkaStreams(topology(args[2], args[3]), config(args[0], args[1], args[4], args[5]));
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
        streams.close(Duration.ofSeconds(20));
        System.out.println("STOPPED");
        System.exit(0);
    }
}
