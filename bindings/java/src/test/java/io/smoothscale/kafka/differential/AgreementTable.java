package io.smoothscale.kafka.differential;

import java.util.EnumMap;
import java.util.Map;

/** Per class counts of the differential, rendered as a Markdown table. */
final class AgreementTable {
    private final Map<Comparison, int[]> counts = new EnumMap<>(Comparison.class);
    private static final int STATES = 0;
    private static final int EXACT = 1;
    private static final int AS_RUNS = 2;
    private static final int UNDEFINED = 3;
    private static final int UNDEFINED_MATCHED = 4;
    private static final int REAL = 5;
    private static final int KNOWN = 6;
    private static final int ASCENDING = 7;

    AgreementTable() {
        for (final Comparison comparison : Comparison.values()) {
            counts.put(comparison, new int[8]);
        }
    }

    /** Counts one state's verdict; {@code known} says whether a difference is a listed one. */
    void add(final Comparison comparison, final Verdict verdict, final boolean known) {
        final int[] row = counts.get(comparison);
        row[STATES]++;
        if (verdict.asKafkaRuns()) {
            row[AS_RUNS]++;
        }
        if (verdict.ours().equals(verdict.kafka().get(Labelings.ASCENDING))) {
            row[ASCENDING]++;
        }
        if (!verdict.kafkaDefined()) {
            row[UNDEFINED]++;
            if (verdict.matchesAVariant()) {
                row[UNDEFINED_MATCHED]++;
            }
        } else if (verdict.asKafkaRuns()) {
            row[EXACT]++;
        } else if (known) {
            row[KNOWN]++;
        } else {
            row[REAL]++;
        }
    }

    /** The real (unlisted) differences of a class. */
    int real(final Comparison comparison) {
        return counts.get(comparison)[REAL];
    }

    /** The table, one class a row. */
    String markdown(final long seed) {
        final StringBuilder out = new StringBuilder();
        out.append("Differential against Kafka Streams 4.4.0's assignors (seed ").append(seed).append(", ")
            .append(Labelings.COUNT).append(" order-preserving labelings per state, ").append(Labelings.COUNT + Labelings.EXTRA)
            .append(" where ours differs from all of them agreeing)\n\n");
        out.append("| class | states | exact (Kafka defined, ours equal) | as Kafka runs (first labeling) "
            + "| as Kafka with ascending process hash order | Kafka order-undefined | of those, ours equals a Kafka variant "
            + "| real differences | known differences |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (final Map.Entry<Comparison, int[]> entry : counts.entrySet()) {
            final int[] row = entry.getValue();
            out.append("| ").append(entry.getKey().title())
                .append(" | ").append(row[STATES])
                .append(" | ").append(row[EXACT]).append(percent(row[EXACT], row[STATES] - row[UNDEFINED]))
                .append(" | ").append(row[AS_RUNS]).append(percent(row[AS_RUNS], row[STATES]))
                .append(" | ").append(row[ASCENDING]).append(percent(row[ASCENDING], row[STATES]))
                .append(" | ").append(row[UNDEFINED])
                .append(" | ").append(row[UNDEFINED_MATCHED])
                .append(" | ").append(row[REAL])
                .append(" | ").append(row[KNOWN]).append(" |\n");
        }
        return out.append("\n\"exact\" is out of the states where Kafka is order-defined.\n").toString();
    }

    private static String percent(final int part, final int whole) {
        return whole == 0 ? "" : String.format(" (%.1f%%)", 100.0 * part / whole);
    }
}
