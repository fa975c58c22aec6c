package io.smoothscale.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;

/**
 * The restore rate the group leader observes between its rebalances, for strategies that predict when warm-ups
 * catch up ({@code smooth}). Kafka Streams gives an assignor the lags members report now; this remembers, for every
 * standby and warm-up of the plan it returned, the lag then (the changelog's end offset sum where the member had no
 * state). A member restores at one rate that its replicas share, so at the next rebalance each member whose replicas
 * include one still behind ({@code acceptable.recovery.lag} or more records) gives a sample: what all its replicas
 * restored, {@code Σ (lag then − lag now)}, over the time between, records per second. The observation is the largest
 * sample; without one the previous observation stands; a new leader starts with none. The same rule as the
 * simulator's leader ({@code docs/simulator.md}, "Lag reports").
 */
final class RestoreRateObserver {
    private Instant last = null;
    private Map<ProcessId, Map<TaskId, Long>> lastLags = Map.of();
    private OptionalLong observed = OptionalLong.empty();

    /** The observation at a rebalance at {@code now}, from the lags members report now ({@code states}). */
    synchronized OptionalLong observe(final Instant now, final Map<ProcessId, KafkaStreamsState> states,
                                      final long acceptableRecoveryLag) {
        if (last != null) {
            final long ms = Duration.between(last, now).toMillis();
            long best = 0;
            for (final Map.Entry<ProcessId, Map<TaskId, Long>> member : lastLags.entrySet()) {
                final KafkaStreamsState state = states.get(member.getKey());
                if (state == null || ms <= 0) {
                    continue;
                }
                long restored = 0;
                boolean behind = false;
                for (final Map.Entry<TaskId, Long> replica : member.getValue().entrySet()) {
                    final long then = replica.getValue();
                    final long now1 = lagOrNegative(state, replica.getKey());
                    if (now1 < 0) {
                        continue;
                    }
                    if (now1 < then) {
                        restored = Math.addExact(restored, then - now1);
                    }
                    behind |= now1 > acceptableRecoveryLag;
                }
                if (behind) {
                    best = Math.max(best, perSecond(restored, ms));
                }
            }
            if (best > 0) {
                observed = OptionalLong.of(best);
            }
        }
        return observed;
    }

    /**
     * Remembers the replicas (standbys and warm-ups) of the plan returned at {@code now}, with each one's lag then.
     */
    synchronized void remember(final Instant now, final EncodedState state, final DecodedPlan plan,
                               final Map<ProcessId, KafkaStreamsState> states) {
        final Map<ProcessId, Map<TaskId, Long>> lags = new HashMap<>();
        final List<ProcessId> clients = state.clients();
        for (int c = 0; c < clients.size(); c++) {
            final KafkaStreamsState s = states.get(clients.get(c));
            final DecodedPlan.ClientPlan cp = plan.clients().get(c);
            final Map<TaskId, Long> mine = new HashMap<>();
            for (final List<TaskId> replicas : List.of(cp.standby(), cp.warmup())) {
                for (final TaskId task : replicas) {
                    final long lag = s == null ? -1 : lagOrNegative(s, task);
                    if (lag >= 0) {
                        mine.put(task, lag);
                    }
                }
            }
            if (!mine.isEmpty()) {
                lags.put(clients.get(c), mine);
            }
        }
        last = now;
        lastLags = lags;
    }

    /** The lag {@code state} reports for {@code task} (its end offset sum without local state), or −1. */
    private static long lagOrNegative(final KafkaStreamsState state, final TaskId task) {
        try {
            return state.lagFor(task);
        } catch (final RuntimeException e) {
            return -1;
        }
    }

    /** {@code records} over {@code ms} milliseconds, per second, rounded down, without overflowing. */
    static long perSecond(final long records, final long ms) {
        final long whole = records / ms;
        final long rest = records % ms;
        return Math.addExact(Math.multiplyExact(whole, 1000L), rest * 1000L / ms);
    }
}
