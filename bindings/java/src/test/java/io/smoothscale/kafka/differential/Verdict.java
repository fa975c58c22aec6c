package io.smoothscale.kafka.differential;

import java.util.List;

import io.smoothscale.kafka.testkit.Outcome;

/**
 * How one state compares, for one class: Kafka's outcomes under the labelings (the first is Kafka as
 * it runs) against ours.
 *
 * @param kafka   Kafka's outcome under each labeling
 * @param ours    our outcome
 */
record Verdict(List<Outcome> kafka, Outcome ours) {

    /** Whether Kafka's outcome is the same under every labeling. */
    boolean kafkaDefined() {
        return kafka.stream().distinct().count() == 1;
    }

    /** Whether ours equals Kafka as it runs (the first labeling). */
    boolean asKafkaRuns() {
        return ours.equals(kafka.get(0));
    }

    /** Whether ours equals one of Kafka's outcomes. */
    boolean matchesAVariant() {
        return kafka.contains(ours);
    }

    /** Kafka is defined and ours differs. */
    boolean difference() {
        return kafkaDefined() && !asKafkaRuns();
    }

    /** Every distinct Kafka outcome with the labelings that gave it, then ours. */
    String describe() {
        final StringBuilder out = new StringBuilder();
        final List<Outcome> distinct = kafka.stream().distinct().toList();
        for (final Outcome outcome : distinct) {
            out.append("Kafka under labelings");
            for (int v = 0; v < kafka.size(); v++) {
                if (kafka.get(v).equals(outcome)) {
                    out.append(' ').append(v);
                }
            }
            out.append(":\n").append(outcome.describe());
        }
        return out.append("ours:\n").append(ours.describe()).toString();
    }
}
