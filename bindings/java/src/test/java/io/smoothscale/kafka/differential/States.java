package io.smoothscale.kafka.differential;

import java.util.SplittableRandom;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.Labeling;

/**
 * The differential's states, each a function of the run's seed and its index. Indices come in groups
 * of {@link #CHAIN}: half of the groups are chains of rebalances (state k + 1 is state k after
 * Kafka's {@code HighAvailabilityTaskAssignor} assignment of it, under the first labeling, with the
 * owners' reports updated by {@link Feedback}); the other half are independent random states. A
 * chain is replayed from its start, so any index can be run alone; asking for the indices in order
 * reuses the previous step.
 */
final class States {
    /** The length of a chain of rebalances. */
    static final int CHAIN = 5;

    private final long seed;
    private int cachedIndex = -1;
    private AppSpec cached;
    private SplittableRandom cachedRandom;

    States(final long seed) {
        this.seed = seed;
    }

    /** Whether state {@code index} is fed back from the one before it. */
    boolean chained(final int index) {
        return new SplittableRandom(Seeds.mix(seed, index / CHAIN, 1)).nextBoolean();
    }

    /** State {@code index}. */
    AppSpec at(final int index) {
        if (!chained(index)) {
            return StateGenerator.generate(new SplittableRandom(Seeds.mix(seed, index, 2)));
        }
        final int start = index - index % CHAIN;
        int step = start;
        AppSpec spec;
        SplittableRandom random;
        if (cachedIndex >= start && cachedIndex <= index) {
            step = cachedIndex;
            spec = cached;
            random = cachedRandom;
        } else {
            random = new SplittableRandom(Seeds.mix(seed, start, 3));
            spec = StateGenerator.generate(random);
        }
        while (step < index) {
            final Labeling first = Labelings.of(spec, seed, step).get(0);
            spec = Feedback.next(spec, KafkaAssignor.HIGH_AVAILABILITY.run(spec, first), random);
            step++;
        }
        cachedIndex = index;
        cached = spec;
        cachedRandom = random;
        return spec;
    }
}
