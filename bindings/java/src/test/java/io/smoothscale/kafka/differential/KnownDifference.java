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

    /**
     * The documented differences, for the default seed: none. The first run of this differential listed
     * eight kip441 states (112, 271, 318, 454, 620, 623, 853, 896) where Kafka's standby-movement
     * {@code PriorityQueue}, ordered by (caught-up clients, task) only, served two movements of one task in
     * heap-position order while ours took them by destination; kip441 now replays Java's heap
     * ({@code kip441/java_queue.rs}) and equals Kafka on all eight. A state Kafka decides the same under
     * every labeling and ours does not fails the test until it is examined and listed here.
     */
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
