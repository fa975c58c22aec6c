package io.smoothscale.kafka.differential;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.Labeling;
import io.smoothscale.kafka.testkit.Outcome;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The differential against Kafka's own assignors (issue 13). For each random state
 * ({@code smoothscale.diff.states}, default 1000; {@code smoothscale.diff.seed}; one state alone with
 * {@code smoothscale.diff.only=INDEX}), every Kafka assignor runs under {@link Labelings#COUNT}
 * order-preserving labelings (and {@link Labelings#EXTRA} more when ours differs from all of them
 * agreeing) and ours once; a state where Kafka's result is the same under every
 * labeling and ours differs fails the test unless {@link KnownDifference} lists it (informational
 * classes never fail). The per-class table is printed and written to
 * {@code target/differential.md}.
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
        final int first = only == null ? 0 : only;
        final int end = only == null ? count : only + 1;
        final States states = new States(seed);
        final AgreementTable table = new AgreementTable();
        final List<String> failures = new ArrayList<>();
        final Map<Comparison, List<Integer>> unmatched = new EnumMap<>(Comparison.class);
        final long started = System.nanoTime();
        for (int index = first; index < end; index++) {
            final AppSpec spec = states.at(index);
            final List<Labeling> labelings = Labelings.of(spec, seed, index);
            final Map<String, Outcome> ours = new HashMap<>();
            if (only != null) {
                System.out.printf("state %d (seed %d, %s):%n%s", index, seed,
                    states.chained(index) ? "chain step " + index % States.CHAIN : "independent", spec.describe());
            }
            for (final Comparison comparison : Comparison.values()) {
                final List<Outcome> kafka = new ArrayList<>();
                for (final Labeling labeling : labelings) {
                    kafka.add(comparison.kafka.run(spec, labeling));
                }
                Verdict verdict = new Verdict(kafka, ours.computeIfAbsent(comparison.strategy,
                    strategy -> OursSide.run(strategy, spec, labelings.get(0))));
                if (verdict.difference()) {
                    for (final Labeling labeling : Labelings.extra(spec, seed, index)) {
                        kafka.add(comparison.kafka.run(spec, labeling));
                    }
                    verdict = new Verdict(kafka, verdict.ours());
                }
                final KnownDifference known = KnownDifference.find(comparison, seed, index);
                table.add(comparison, verdict, known != null);
                if (only != null) {
                    System.out.printf("%s:%n%s", comparison.title(), verdict.describe());
                }
                if (!verdict.kafkaDefined() && !verdict.matchesAVariant()) {
                    unmatched.computeIfAbsent(comparison, c -> new ArrayList<>()).add(index);
                }
                if (verdict.difference() && !comparison.informational) {
                    final String report = String.format("%s differs on state %d (seed %d, run alone with "
                            + "-Dsmoothscale.diff.only=%d)%s%n%slabeling 0: %s%n%s", comparison.title(), index, seed, index,
                        known == null ? "" : " — known: " + known.explanation(), spec.describe(), labelings.get(0),
                        verdict.describe());
                    System.out.println(report);
                    if (known == null) {
                        failures.add(comparison.title() + " on state " + index);
                    }
                }
            }
        }
        final String markdown = table.markdown(seed);
        System.out.println(markdown);
        unmatched.forEach((comparison, indices) -> System.out.printf(
            "%s: Kafka order-undefined and ours equal to none of its variants on states %s%n", comparison.title(),
            indices));
        System.out.printf("differential: %d states in %.1f s%n", end - first, (System.nanoTime() - started) / 1e9);
        final Path out = Path.of(System.getProperty("basedir", "."), "target", "differential.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, markdown);
        assertTrue(failures.isEmpty(), "real differences from Kafka: " + failures);
    }
}
