package io.smoothscale.kafka.differential;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.Labeling;
import io.smoothscale.kafka.testkit.Outcome;

/**
 * One run of the differential over a range of state indices: classifies every state for every class,
 * prints each difference in full (or, for a single state, everything), and keeps the table, the
 * unexplained differences, and the listed known differences that did not occur.
 */
final class Differential {
    private final long seed;
    private final boolean verbose;
    private final States states;
    private final AgreementTable table = new AgreementTable();
    private final List<String> failures = new ArrayList<>();
    private final Set<KnownDifference> seen = new HashSet<>();
    private final Map<Comparison, List<Integer>> unmatched = new EnumMap<>(Comparison.class);

    /** A run over the states of {@code seed}; {@code verbose} prints every outcome of every state. */
    Differential(final long seed, final boolean verbose) {
        this.seed = seed;
        this.verbose = verbose;
        this.states = new States(seed);
    }

    /** Runs states {@code first} (inclusive) to {@code end} (exclusive), in order. */
    void run(final int first, final int end) {
        for (int index = first; index < end; index++) {
            compare(index);
        }
        for (final KnownDifference known : KnownDifference.ALL) {
            if (known.seed() == seed && known.index() >= first && known.index() < end && !seen.contains(known)) {
                failures.add("listed known difference no longer differs: " + known.comparison().title() + " on state "
                    + known.index());
            }
        }
    }

    private void compare(final int index) {
        final AppSpec spec = states.at(index);
        final List<Labeling> labelings = Labelings.of(spec, seed, index);
        final Map<String, Outcome> ours = new HashMap<>();
        if (verbose) {
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
            record(comparison, index, spec, labelings.get(0), verdict);
        }
    }

    private void record(final Comparison comparison, final int index, final AppSpec spec, final Labeling first,
                        final Verdict verdict) {
        final KnownDifference known = verdict.difference() ? KnownDifference.find(comparison, seed, index) : null;
        table.add(comparison, verdict, known != null);
        if (verbose) {
            System.out.printf("%s:%n%s", comparison.title(), verdict.describe());
        }
        if (!verdict.kafkaDefined() && !verdict.matchesAVariant()) {
            unmatched.computeIfAbsent(comparison, c -> new ArrayList<>()).add(index);
        }
        if (!verdict.difference() || comparison.informational) {
            return;
        }
        System.out.printf("%s differs on state %d (seed %d, run alone with -Dsmoothscale.diff.only=%d)%s%n%s"
                + "labeling 0: %s%n%s%n", comparison.title(), index, seed, index,
            known == null ? "" : " — known: " + known.explanation(), spec.describe(), first, verdict.describe());
        if (known == null) {
            failures.add(comparison.title() + " on state " + index);
        } else {
            seen.add(known);
        }
    }

    /** The agreement table, as Markdown. */
    String table() {
        return table.markdown(seed);
    }

    /** Per class, the states where Kafka is order-undefined and ours equals none of its outcomes. */
    Map<Comparison, List<Integer>> unmatched() {
        return unmatched;
    }

    /** The unexplained differences and the stale known differences; empty when the run passes. */
    List<String> failures() {
        return failures;
    }
}
