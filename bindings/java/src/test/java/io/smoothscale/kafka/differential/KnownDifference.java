package io.smoothscale.kafka.differential;

import java.util.List;

/**
 * A state on which Kafka's result does not depend on hash order and ours still differs, for a reason
 * shown and accepted. The differential fails on any other such state.
 *
 * @param comparison  the class
 * @param seed        the run's seed
 * @param index       the state's index
 * @param explanation why the results differ
 */
record KnownDifference(Comparison comparison, long seed, int index, String explanation) {

    /** The documented differences, for the default seed. */
    static final List<KnownDifference> ALL = List.of();

    /** The entry for this state, or {@code null}. */
    static KnownDifference find(final Comparison comparison, final long seed, final int index) {
        for (final KnownDifference known : ALL) {
            if (known.comparison == comparison && known.seed == seed && known.index == index) {
                return known;
            }
        }
        return null;
    }
}
