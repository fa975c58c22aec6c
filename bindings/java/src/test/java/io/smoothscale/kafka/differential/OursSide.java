package io.smoothscale.kafka.differential;

import java.util.Map;

import io.smoothscale.kafka.SmoothscaleTaskAssignor;
import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.Labeling;
import io.smoothscale.kafka.testkit.Outcome;
import io.smoothscale.kafka.testkit.SpecApplicationState;

/** Our side of the differential: the adapter, as Kafka Streams calls it, on the same state. */
final class OursSide {
    private OursSide() {
    }

    /** Our outcome for the state under the labeling, with the strategy. */
    static Outcome run(final String strategy, final AppSpec spec, final Labeling labeling) {
        final SmoothscaleTaskAssignor assignor = new SmoothscaleTaskAssignor();
        assignor.configure(Map.of("smoothscale.strategy", strategy));
        return Outcome.of(assignor.assign(SpecApplicationState.of(spec, labeling)), labeling, spec.clients().size());
    }
}
