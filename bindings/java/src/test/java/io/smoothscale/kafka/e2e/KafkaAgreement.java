package io.smoothscale.kafka.e2e;

import io.smoothscale.kafka.LiveStates;
import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.CrossingState;
import io.smoothscale.kafka.testkit.Labeling;
import io.smoothscale.kafka.testkit.LegacyInput;
import io.smoothscale.kafka.testkit.Outcome;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.TaskAssignor.TaskAssignment;
import org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor;

/**
 * The differential, live: Kafka's own {@code HighAvailabilityTaskAssignor} (from the kafka-streams jar, through
 * its legacy interface, as the differential runs it) on the state the group leader just gave our {@code kip441},
 * with the real process ids. Where Kafka's result depends on hash order (it changes when only the process ids'
 * hash codes change), no single answer is Kafka's and the state is reported as {@code order-undefined}.
 */
final class KafkaAgreement {
    /** Order-preserving relabelings tried before a disagreement is called a difference. */
    private static final int RELABELINGS = 8;

    private KafkaAgreement() {
    }

    /** {@code agrees}, {@code order-undefined}, or {@code differs:} with both plans. */
    static String check(final ApplicationState state, final TaskAssignment ours) {
        final LiveStates.Encoded encoded = LiveStates.encode(state);
        final AppSpec spec = CrossingState.decode(encoded.message());
        final Labeling live = Labeling.of(spec, encoded.clients());
        final Outcome kafka = LegacyInput.of(spec, live).run(new HighAvailabilityTaskAssignor());
        final Outcome mine = Outcome.of(ours, live, spec.clients().size());
        if (kafka.equals(mine)) {
            return "agrees";
        }
        final Set<Outcome> variants = new HashSet<>();
        variants.add(kafka);
        for (long seed = 1; seed <= RELABELINGS; seed++) {
            final Labeling relabeled = Labeling.of(spec, seed, null);
            variants.add(LegacyInput.of(spec, relabeled).run(new HighAvailabilityTaskAssignor()));
        }
        if (variants.size() > 1) {
            return "order-undefined";
        }
        return ("differs: Kafka " + kafka.describe() + " ours " + mine.describe()).replace('\n', ' ');
    }
}
