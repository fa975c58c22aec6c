package io.smoothscale.kafka.differential;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.Labeling;
import io.smoothscale.kafka.testkit.LegacyInput;
import io.smoothscale.kafka.testkit.Outcome;
import io.smoothscale.kafka.testkit.SpecApplicationState;

import org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor;
import org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor;
import org.apache.kafka.streams.processor.internals.assignment.LegacyStickyTaskAssignor;

/** Kafka's assignors the differential runs, each called from the kafka-streams jar on a labeled state. */
enum KafkaAssignor {
    /** {@code HighAvailabilityTaskAssignor}, through the legacy interface. */
    HIGH_AVAILABILITY {
        @Override
        Outcome run(final AppSpec spec, final Labeling labeling) {
            return LegacyInput.of(spec, labeling).run(new HighAvailabilityTaskAssignor());
        }
    },
    /** {@code LegacyStickyTaskAssignor}, through the legacy interface (it never asks for a follow-up). */
    LEGACY_STICKY {
        @Override
        Outcome run(final AppSpec spec, final Labeling labeling) {
            return LegacyInput.of(spec, labeling).run(new LegacyStickyTaskAssignor());
        }
    },
    /**
     * The public KIP-924 {@code assignors.StickyTaskAssignor}, on an {@code ApplicationState} whose task
     * infos hash by task id (see {@link ValueHashedTasks}).
     */
    KIP924_STICKY {
        @Override
        Outcome run(final AppSpec spec, final Labeling labeling) {
            return Outcome.of(new StickyTaskAssignor().assign(new ValueHashedTasks(SpecApplicationState.of(spec, labeling))),
                labeling, spec.clients().size());
        }
    };

    /** Runs this assignor on the state under the labeling and reads the result back by client rank. */
    abstract Outcome run(AppSpec spec, Labeling labeling);
}
