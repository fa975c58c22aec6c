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
     * Kafka's {@code TaskMovement.assignStandbyTaskMovements} queues one movement per standby that is not
     * caught up, in a {@code PriorityQueue} ordered by (number of caught-up clients, task) only. Two
     * movements of the same task to different destinations tie, and {@code java.util.PriorityQueue}
     * yields them in its binary-heap order: insertion follows the clients' {@code TreeMap} order, so the
     * order is the same under every labeling, but after the heap's sifts it is not ascending by
     * destination. Ours takes tied movements by destination ascending. The first one taken gets the
     * next caught-up source (and keeps its standby as a warm-up while warm-ups remain), so the standbys
     * (warm-ups) of that task, and of later tasks competing for the same sources, land elsewhere.
     * Actives and the follow-up flag are the same. Shown on state 112 by tracing Kafka's code by hand
     * (movements queued (t1→c1), (t2→c2), (t3→c2), (t3→c3); the heap yields (t3→c3) before (t3→c2);
     * taking (t3→c2) first gives ours exactly), and on all eight states by running Kafka with the
     * comparator extended by {@code .thenComparing(destination)} (a patched class on the test class path,
     * outside the repository): Kafka then equals ours on every one of them, and no kip441 difference is
     * left in the first 20,000 states. Running more than the CI's 1,000 states meets more states of this
     * kind; each fails until examined and listed.
     */
    private static final String STANDBY_MOVEMENT_TIE = "Kafka's standby-movement queue breaks a tie between two "
        + "movements of the same task by heap position, ours by destination order";

    /** The documented differences, for the default seed. */
    static final List<KnownDifference> ALL = List.of(
        new KnownDifference(Comparison.KIP441_VS_HATA, DifferentialTest.DEFAULT_SEED, 112, STANDBY_MOVEMENT_TIE),
        new KnownDifference(Comparison.KIP441_VS_HATA, DifferentialTest.DEFAULT_SEED, 271, STANDBY_MOVEMENT_TIE),
        new KnownDifference(Comparison.KIP441_VS_HATA, DifferentialTest.DEFAULT_SEED, 318, STANDBY_MOVEMENT_TIE),
        new KnownDifference(Comparison.KIP441_VS_HATA, DifferentialTest.DEFAULT_SEED, 454, STANDBY_MOVEMENT_TIE),
        new KnownDifference(Comparison.KIP441_VS_HATA, DifferentialTest.DEFAULT_SEED, 620, STANDBY_MOVEMENT_TIE),
        new KnownDifference(Comparison.KIP441_VS_HATA, DifferentialTest.DEFAULT_SEED, 623, STANDBY_MOVEMENT_TIE),
        new KnownDifference(Comparison.KIP441_VS_HATA, DifferentialTest.DEFAULT_SEED, 853, STANDBY_MOVEMENT_TIE),
        new KnownDifference(Comparison.KIP441_VS_HATA, DifferentialTest.DEFAULT_SEED, 896, STANDBY_MOVEMENT_TIE));

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
