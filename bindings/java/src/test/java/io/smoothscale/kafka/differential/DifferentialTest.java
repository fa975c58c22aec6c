package io.smoothscale.kafka.differential;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The differential against Kafka's own assignors (issue 13). For each random state
 * ({@code smoothscale.diff.states}, default 1000; {@code smoothscale.diff.seed}; one state alone with
 * {@code smoothscale.diff.only=INDEX}), every Kafka assignor runs under {@link Labelings#COUNT}
 * order-preserving labelings (and {@link Labelings#EXTRA} more when ours differs from all of them
 * agreeing) and ours once; a state where Kafka's result is the same under every labeling and ours
 * differs fails the test unless {@link KnownDifference} lists it (informational classes never fail),
 * and so does a listed difference that no longer occurs. The per-class table is printed and written
 * to {@code target/differential.md}.
 */
class DifferentialTest {
    /** The seed of the CI run, and of the known differences. */
    static final long DEFAULT_SEED = 20261203L;

    /**
     * Kafka's assignors warn on every call (rack awareness off, too few clients for the standbys):
     * thousands of lines that would bury the table. slf4j-simple reads a logger's level when the logger
     * is created, so this runs before Kafka's assignor classes load.
     */
    @BeforeAll
    static void quietKafkaAssignors() {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka.streams.processor.assignment", "error");
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka.streams.processor.internals.assignment",
            "error");
    }

    @Test
    void oursEqualsKafkaWhereKafkaIsOrderDefined() throws IOException {
        final long seed = Long.getLong("smoothscale.diff.seed", DEFAULT_SEED);
        final Integer only = Integer.getInteger("smoothscale.diff.only");
        final int count = Integer.getInteger("smoothscale.diff.states", 1000);
        final Differential differential = new Differential(seed, only != null);
        final long started = System.nanoTime();
        if (only == null) {
            differential.run(0, count);
        } else {
            differential.run(only, only + 1);
        }
        final String markdown = differential.table();
        System.out.println(markdown);
        differential.unmatched().forEach((comparison, indices) -> System.out.printf(
            "%s: Kafka order-undefined and ours equal to none of its outcomes on %d states, the first %s%n",
            comparison.title(), indices.size(), indices.subList(0, Math.min(20, indices.size()))));
        System.out.printf("differential: %d states in %.1f s%n", only == null ? count : 1,
            (System.nanoTime() - started) / 1e9);
        final Path out = Path.of(System.getProperty("basedir", "."), "target", "differential.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, markdown);
        assertTrue(differential.failures().isEmpty(), "differences from Kafka: " + differential.failures());
    }
}
