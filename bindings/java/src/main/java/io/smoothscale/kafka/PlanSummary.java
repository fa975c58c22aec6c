package io.smoothscale.kafka;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.processor.TaskId;

/**
 * What a rebalance decided, in figures for the log.
 *
 * @param strategy the strategy that ran
 * @param clients processes in the group
 * @param tasks tasks assigned
 * @param moves active tasks whose owner changed from the previous assignment
 * @param newActives active tasks that had no previous owner
 * @param standbys standby replicas
 * @param warmups warm-up replicas (sent to Kafka as standbys)
 * @param followupDeadline when the follow-up (probing) rebalance is due, if one was asked for
 * @param diagnostics the strategy's notes
 */
record PlanSummary(String strategy, int clients, int tasks, int moves, int newActives, int standbys, int warmups,
                   Optional<Instant> followupDeadline, List<String> diagnostics) {

    /** Counts the figures of {@code plan} against the previous actives recorded in {@code state}. */
    static PlanSummary of(final String strategy, final EncodedState state, final DecodedPlan plan,
                          final Optional<Instant> deadline) {
        int moves = 0;
        int fresh = 0;
        int standbys = 0;
        int warmups = 0;
        for (int c = 0; c < plan.clients().size(); c++) {
            final DecodedPlan.ClientPlan cp = plan.clients().get(c);
            for (final TaskId t : cp.active()) {
                final int before = state.previousOwner()[state.positions().of(t)];
                if (before < 0) {
                    fresh++;
                } else if (before != c) {
                    moves++;
                }
            }
            standbys += cp.standby().size();
            warmups += cp.warmup().size();
        }
        return new PlanSummary(strategy, state.clients().size(), state.tasks().size(), moves, fresh, standbys, warmups,
            deadline, plan.diagnostics());
    }

    @Override
    public String toString() {
        return "smoothscale " + strategy + ": " + tasks + " tasks on " + clients + " clients, " + moves
            + " active moves, " + newActives + " new actives, " + standbys + " standbys, " + warmups + " warm-ups, "
            + followupDeadline.map(d -> "follow-up rebalance at " + d).orElse("no follow-up rebalance")
            + (diagnostics.isEmpty() ? "" : "; " + String.join("; ", diagnostics));
    }
}
