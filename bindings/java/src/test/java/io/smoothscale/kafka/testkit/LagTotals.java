package io.smoothscale.kafka.testkit;

import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.streams.processor.TaskId;

/**
 * Kafka's per-client lag totals for a state: every stateful task mapped to the client's report, or to
 * the task's end offset when the client reported nothing (what {@code ClientState.computeTaskLags}
 * computes). A sorted map, as Kafka keeps it; the same map feeds the legacy {@code ClientState} and
 * the KIP-924 {@code KafkaStreamsState}.
 */
public final class LagTotals {
    private LagTotals() {
    }

    /** The lag totals of the client of this rank, keyed by the labeling's task ids. */
    public static Map<TaskId, Long> of(final AppSpec spec, final Labeling labeling, final int client) {
        final Map<TaskId, Long> lags = new TreeMap<>();
        for (int t = 0; t < spec.tasks().size(); t++) {
            if (spec.tasks().get(t).stateful()) {
                lags.put(labeling.taskId(t), spec.lag(client, t));
            }
        }
        return lags;
    }
}
