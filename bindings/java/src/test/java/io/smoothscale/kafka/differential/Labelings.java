package io.smoothscale.kafka.differential;

import java.util.ArrayList;
import java.util.List;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.Labeling;

/**
 * The order-preserving relabelings a state is run under. The first has plain task ids and random
 * UUID halves: Kafka as it actually runs, and the labeling ours runs under. The second draws other
 * UUIDs (process hash order); the last two also name the topology (task hash order).
 */
final class Labelings {
    /** How many labelings each Kafka assignor runs under. */
    static final int COUNT = 4;
    private static final String[] TOPOLOGY_NAMES = {null, null, "t", "topology-b"};

    private Labelings() {
    }

    /** The labelings of state {@code index} of the run seeded {@code seed}. */
    static List<Labeling> of(final AppSpec spec, final long seed, final int index) {
        final List<Labeling> labelings = new ArrayList<>(COUNT);
        for (int v = 0; v < COUNT; v++) {
            labelings.add(Labeling.of(spec, Seeds.mix(seed, index, 1_000 + v), TOPOLOGY_NAMES[v]));
        }
        return labelings;
    }
}
