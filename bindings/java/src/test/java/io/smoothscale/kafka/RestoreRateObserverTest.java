package io.smoothscale.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.internals.assignment.DefaultKafkaStreamsState;
import org.junit.jupiter.api.Test;

/**
 * The leader's memory around the core's restore-rate rule: what it remembers, and which observation stands. The
 * rule itself is tested in Rust ({@code smoothscale::restore_rate}).
 */
class RestoreRateObserverTest {
    private static final Instant THEN = Instant.parse("2026-12-03T12:00:00Z");
    private static final TaskId T = new TaskId(0, 0);

    private static KafkaStreamsState reports(final int i, final long lag) {
        final ProcessId pid = AppStates.pid(i);
        final SortedMap<String, Set<TaskId>> byConsumer = new TreeMap<>(Map.of(pid + "-consumer", Set.of(T)));
        return new DefaultKafkaStreamsState(pid, 1, Map.of(), new TreeSet<>(), new TreeSet<>(), byConsumer,
            Optional.empty(), Optional.of(Map.of(T, lag)), Optional.empty());
    }

    /** An observer that returned a plan at {@link #THEN} with a standby of T on process 0, {@code lag} behind. */
    private static RestoreRateObserver remembering(final long lag) {
        final List<TaskId> tasks = List.of(T);
        final EncodedState state = new EncodedState(new byte[0], List.of(AppStates.pid(0)), tasks,
            new TaskPositions(tasks), new int[1]);
        final DecodedPlan plan = new DecodedPlan(List.of(new DecodedPlan.ClientPlan(List.of(), List.of(T), List.of())),
            OptionalLong.empty(), List.of(), List.of());
        final RestoreRateObserver observer = new RestoreRateObserver();
        observer.remember(THEN, state, plan, Map.of(AppStates.pid(0), reports(0, lag)));
        return observer;
    }

    @Test
    void aNewLeaderHasNoObservation() {
        assertEquals(OptionalLong.empty(),
            new RestoreRateObserver().observe(THEN, Map.of(AppStates.pid(0), reports(0, 5)), 0));
    }

    @Test
    void aReplicaStillBehindGivesTheRateAndItStandsUntilANewOne() {
        final RestoreRateObserver observer = remembering(100_000);
        final Instant now = THEN.plusSeconds(10);
        // 40,000 records in 10 s, still 60,000 behind.
        assertEquals(OptionalLong.of(4_000), observer.observe(now, Map.of(AppStates.pid(0), reports(0, 60_000)), 100));
        // The same memory, the replica caught up: only a lower bound, the previous observation stands.
        assertEquals(OptionalLong.of(4_000), observer.observe(now, Map.of(AppStates.pid(0), reports(0, 50)), 100));
        // The member is gone: nothing new.
        assertEquals(OptionalLong.of(4_000), observer.observe(now, Map.of(), 100));
        // No time passed: nothing new either.
        assertEquals(OptionalLong.of(4_000),
            observer.observe(THEN, Map.of(AppStates.pid(0), reports(0, 1_000)), 100));
    }

    @Test
    void aLagThatGrewOrIsUnknownObservesNothing() {
        final RestoreRateObserver observer = remembering(1_000);
        final Instant now = THEN.plusSeconds(10);
        assertEquals(OptionalLong.empty(), observer.observe(now, Map.of(AppStates.pid(0), reports(0, 2_000)), 100));
        assertEquals(OptionalLong.empty(), observer.observe(now, Map.of(AppStates.pid(0), reports(0, -3)), 100));
        // Remembered unknown (-3): no record count then, nothing to compare.
        assertEquals(OptionalLong.empty(),
            remembering(-3).observe(now, Map.of(AppStates.pid(0), reports(0, 10)), 0));
    }
}
