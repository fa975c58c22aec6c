package io.smoothscale.kafka.differential;

import java.util.ArrayList;
import java.util.List;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.Labeling;

/**
 * The order-preserving relabelings a state is run under. The first has plain task ids and random
 * UUID halves: Kafka as it actually runs, and the labeling ours runs under. The second hashes the
 * process ids in ascending order ({@link Labeling#ascending}); the next two draw other UUIDs (process
 * hash order); the last four also name the topology (task hash order). A state on which Kafka
 * looks order-defined and ours differs is run under {@link #EXTRA} more.
 */
final class Labelings {
    /** How many labelings each Kafka assignor runs under. */
    static final int COUNT = 8;
    /** How many more labelings a state gets when Kafka looked order-defined and ours differed. */
    static final int EXTRA = 32;
    /** The position of the ascending labeling. */
    static final int ASCENDING = 1;
    private static final String[] TOPOLOGY_NAMES = {null, null, null, null, "t", "topology-b", "x", "app-2"};

    private Labelings() {
    }

    /** The labelings of state {@code index} of the run seeded {@code seed}. */
    static List<Labeling> of(final AppSpec spec, final long seed, final int index) {
        final List<Labeling> labelings = new ArrayList<>(COUNT);
        for (int v = 0; v < COUNT; v++) {
            labelings.add(v == ASCENDING ? Labeling.ascending(spec)
                : Labeling.of(spec, Seeds.mix(seed, index, 1_000 + v), TOPOLOGY_NAMES[v]));
        }
        return labelings;
    }

    /**
     * {@link #EXTRA} more labelings of state {@code index}, half with plain task ids and half with a
     * named topology, to look harder for an order dependence before a difference is called real.
     */
    static List<Labeling> extra(final AppSpec spec, final long seed, final int index) {
        final List<Labeling> labelings = new ArrayList<>(EXTRA);
        for (int v = 0; v < EXTRA; v++) {
            labelings.add(Labeling.of(spec, Seeds.mix(seed, index, 2_000 + v), v % 2 == 0 ? null : "n" + v));
        }
        return labelings;
    }
}
