package io.smoothscale.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;

/**
 * The group leader's memory for the restore rate it observes between its rebalances, for strategies that predict
 * when warm-ups catch up ({@code smooth}). Kafka Streams gives an assignor the lags members report now; this
 * remembers, for every standby and warm-up of the plan it returned, the lag then (the changelog's end offset sum
 * where the member had no state) and the time, and keeps the last observation. At the next rebalance it sends what
 * it remembers and the lags the same members report now to the core as an observation message
 * (docs/crossing-format.md), and the core applies the leader's rule ({@code smoothscale::restore_rate::observe},
 * the simulator's leader's rule too): the rule itself is not here. Without a new observation the previous one
 * stands; a new leader starts with none.
 */
final class RestoreRateObserver {
    private static final int MAGIC = 0x4F534D53; // "SMSO"
    private static final int VERSION = 1;

    private Instant last = null;
    private SortedMap<ProcessId, SortedMap<TaskId, Long>> lastLags = new TreeMap<>();
    private OptionalLong observed = OptionalLong.empty();

    /** The observation at a rebalance at {@code now}, from the lags members report now ({@code states}). */
    synchronized OptionalLong observe(final Instant now, final Map<ProcessId, KafkaStreamsState> states,
                                      final long acceptableRecoveryLag) {
        if (last != null) {
            final long rate = NativeBridge.observeRestoreRate(message(now, states, acceptableRecoveryLag));
            if (rate >= 0) {
                observed = OptionalLong.of(rate);
            }
        }
        return observed;
    }

    /**
     * Remembers the replicas (standbys and warm-ups) of the plan returned at {@code now}, with the lag each
     * member reported for each one then.
     */
    synchronized void remember(final Instant now, final EncodedState state, final DecodedPlan plan,
                               final Map<ProcessId, KafkaStreamsState> states) {
        final SortedMap<ProcessId, SortedMap<TaskId, Long>> lags = new TreeMap<>();
        final List<ProcessId> clients = state.clients();
        for (int c = 0; c < clients.size(); c++) {
            final KafkaStreamsState s = states.get(clients.get(c));
            if (s == null) {
                continue;
            }
            final DecodedPlan.ClientPlan cp = plan.clients().get(c);
            final SortedMap<TaskId, Long> mine = new TreeMap<>();
            for (final List<TaskId> replicas : List.of(cp.standby(), cp.warmup())) {
                for (final TaskId task : replicas) {
                    final Long lag = lag(s, task);
                    if (lag != null) {
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

    /**
     * The observation message at {@code now}: the time since the remembered plan, {@code acceptable.recovery.lag},
     * the remembered lags ({@code before}), and the lags the same members report for the same tasks now
     * ({@code now}; a member that is gone, or a task it reports no lag for, has no entry). Members are numbered by
     * {@link ProcessId} order, for this message only.
     */
    synchronized byte[] message(final Instant now, final Map<ProcessId, KafkaStreamsState> states,
                                final long acceptableRecoveryLag) {
        int replicas = 0;
        for (final SortedMap<TaskId, Long> mine : lastLags.values()) {
            replicas += mine.size();
        }
        final LittleEndianWriter before = new LittleEndianWriter(4 + 20 * replicas);
        final LittleEndianWriter reported = new LittleEndianWriter(4 + 20 * replicas);
        before.i32(replicas);
        reported.i32(0);
        int reportedCount = 0;
        int member = 0;
        for (final Map.Entry<ProcessId, SortedMap<TaskId, Long>> mine : lastLags.entrySet()) {
            final KafkaStreamsState s = states.get(mine.getKey());
            for (final Map.Entry<TaskId, Long> replica : mine.getValue().entrySet()) {
                final TaskId task = replica.getKey();
                entry(before, member, task, replica.getValue());
                final Long lag = s == null ? null : lag(s, task);
                if (lag != null) {
                    entry(reported, member, task, lag);
                    reportedCount++;
                }
            }
            member++;
        }
        reported.patchI32(0, reportedCount);
        final LittleEndianWriter out = new LittleEndianWriter(24 + before.size() + reported.size());
        out.i32(MAGIC);
        out.i32(VERSION);
        out.i64(last == null ? 0 : Duration.between(last, now).toMillis());
        out.i64(acceptableRecoveryLag);
        out.append(before);
        out.append(reported);
        return out.toByteArray();
    }

    private static void entry(final LittleEndianWriter out, final int member, final TaskId task, final long lag) {
        out.i32(member);
        out.i32(task.subtopology());
        out.i32(task.partition());
        out.i64(lag);
    }

    /** The lag {@code state} reports for {@code task} (its end offset sum without local state), if it has one. */
    private static Long lag(final KafkaStreamsState state, final TaskId task) {
        try {
            return state.lagFor(task);
        } catch (final RuntimeException e) {
            return null;
        }
    }
}
