package io.smoothscale.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.errors.TaskAssignmentException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment.AssignedTask;
import org.apache.kafka.streams.processor.assignment.TaskAssignor.AssignmentError;
import org.apache.kafka.streams.processor.assignment.TaskAssignor.TaskAssignment;
import org.junit.jupiter.api.Test;

class SmoothscaleTaskAssignorTest {
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    private static SmoothscaleTaskAssignor assignor(final String strategy) {
        final SmoothscaleTaskAssignor a = new SmoothscaleTaskAssignor(Clock.fixed(NOW, ZoneOffset.UTC));
        a.configure(strategy == null ? Map.of() : Map.of("smoothscale.strategy", strategy));
        return a;
    }

    private static List<KafkaStreamsAssignment> byProcess(final TaskAssignment t) {
        return t.assignment().stream().sorted(Comparator.comparing(KafkaStreamsAssignment::processId)).toList();
    }

    private static Set<TaskId> tasks(final KafkaStreamsAssignment a, final AssignedTask.Type type) {
        return a.tasks().values().stream().filter(t -> t.type() == type).map(AssignedTask::id)
            .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void theDefaultStrategyIsKip441() {
        assertEquals("kip441", assignor(null).strategy());
        assertEquals("sticky", assignor(" sticky ").strategy());
    }

    @Test
    void badOptionsFailAtConfigureTimeNamingKeyAndValue() {
        final SmoothscaleTaskAssignor a = new SmoothscaleTaskAssignor();
        final ConfigException unknown = assertThrows(ConfigException.class,
            () -> a.configure(Map.of("smoothscale.strategy", "kip999")));
        assertTrue(unknown.getMessage().contains("kip999"), unknown.getMessage());
        assertTrue(unknown.getMessage().contains("smoothscale.strategy"), unknown.getMessage());
        assertTrue(unknown.getMessage().contains("kip441, kip441-learner, sticky"), unknown.getMessage());
        final ConfigException typo = assertThrows(ConfigException.class,
            () -> a.configure(Map.of("smoothscale.stratgy", "sticky")));
        assertTrue(typo.getMessage().contains("smoothscale.stratgy"), typo.getMessage());
        final ConfigException type = assertThrows(ConfigException.class,
            () -> a.configure(Map.of("smoothscale.strategy", 7)));
        assertTrue(type.getMessage().contains("must be a string"), type.getMessage());
        // Other Streams settings pass through untouched.
        a.configure(Map.of("application.id", "app", "num.standby.replicas", 1));
        assertEquals("kip441", a.strategy());
    }

    @Test
    void everyRegisteredStrategyIsAccepted() {
        for (final String name : NativeBridge.strategies()) {
            assertEquals(name, assignor(name).strategy());
        }
    }

    /**
     * Four caught-up tasks on process 0, an empty process 1: kip441 keeps the actives where they are caught up,
     * warms two up on process 1 (returned as standbys) and asks for a probing rebalance.
     */
    @Test
    void warmupsComeBackAsStandbysWithAFollowupOnTheFirstProcess() {
        final AppStates s = new AppStates().stateful(0, 4, 1_000_000);
        s.client(0, 1).active(new TaskId(0, 0)).active(new TaskId(0, 1)).active(new TaskId(0, 2)).active(new TaskId(0, 3));
        s.client(1, 1);
        final SmoothscaleTaskAssignor a = assignor("kip441");
        final List<KafkaStreamsAssignment> out = byProcess(a.assign(s.build()));
        assertEquals(4, tasks(out.get(0), AssignedTask.Type.ACTIVE).size());
        assertEquals(Set.of(), tasks(out.get(1), AssignedTask.Type.ACTIVE));
        assertEquals(2, tasks(out.get(1), AssignedTask.Type.STANDBY).size());
        assertEquals(Optional.of(NOW.plusMillis(600_000)), out.get(0).followupRebalanceDeadline());
        assertEquals(Optional.empty(), out.get(1).followupRebalanceDeadline());
        final PlanSummary summary = a.lastSummary().orElseThrow();
        assertEquals(0, summary.moves());
        assertEquals(2, summary.warmups());
        a.onAssignmentComputed(null, null, AssignmentError.NONE);
    }

    /**
     * smooth on the leader: process 0 runs two stateful tasks of 1,000,000 records, process 1 is new. The first
     * rebalance warms one task up on process 1 (no restore rate observed yet: a measuring follow-up after 60 s).
     * A minute later process 1 reports 400,000 records left: the leader observes 600,000 / 60 s = 10,000
     * records/s, and smooth asks for the next rebalance when the warm-up is predicted caught up, within
     * acceptable.recovery.lag (10,000) of the end: 390,000 records, 39 s, plus a tenth and a second, 43.9 s.
     */
    @Test
    void smoothFollowsUpWhenTheLeadersObservedRateSaysItsWarmupIsDone() {
        final TaskId t0 = new TaskId(0, 0);
        final TaskId t1 = new TaskId(0, 1);
        final Instant[] now = {NOW};
        final Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(final java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        };
        final SmoothscaleTaskAssignor a = new SmoothscaleTaskAssignor(clock);
        a.configure(Map.of("smoothscale.strategy", "smooth"));
        final AppStates first = new AppStates().stateful(0, 2, 1_000_000);
        first.client(0, 1).active(t0).active(t1);
        first.client(1, 1);
        final List<KafkaStreamsAssignment> out = byProcess(a.assign(first.build()));
        final Set<TaskId> warm = tasks(out.get(1), AssignedTask.Type.STANDBY);
        assertEquals(1, warm.size());
        assertEquals(Optional.of(NOW.plusMillis(60_000)), out.get(0).followupRebalanceDeadline());

        now[0] = NOW.plusMillis(60_000);
        final AppStates second = new AppStates().stateful(0, 2, 1_000_000);
        second.client(0, 1).active(t0).active(t1);
        second.client(1, 1).standby(warm.iterator().next(), 400_000);
        final List<KafkaStreamsAssignment> again = byProcess(a.assign(second.build()));
        assertEquals(warm, tasks(again.get(1), AssignedTask.Type.STANDBY));
        assertEquals(Optional.of(now[0].plusMillis(43_900)), again.get(0).followupRebalanceDeadline());
    }

    /** A lag below acceptable.recovery.lag makes a client caught up; an unreported task counts as fully behind. */
    @Test
    void reportedLagsDecideWhoIsCaughtUp() {
        final TaskId t = new TaskId(0, 0);
        for (final int caughtUp : new int[] {0, 1, 2}) {
            final AppStates s = new AppStates().stateful(0, 1, 1_000_000).stateless(1, 2);
            for (int c = 0; c < 3; c++) {
                final AppStates.Client client = s.client(c, 1);
                if (c == caughtUp) {
                    client.lag(t, 9_000);
                } else if (c == (caughtUp + 1) % 3) {
                    client.lag(t, 20_000);
                }
            }
            final List<KafkaStreamsAssignment> out = byProcess(assignor("kip441").assign(s.build()));
            assertEquals(Set.of(t), tasks(out.get(caughtUp), AssignedTask.Type.ACTIVE)
                .stream().filter(x -> x.subtopology() == 0).collect(Collectors.toSet()), "caught up: " + caughtUp);
        }
    }

    @Test
    void standbysFollowTheConfiguredCount() {
        final AppStates s = new AppStates().stateful(0, 6, 100).configs(new AssignmentConfigs(10_000L, 2, 2, 600_000L,
            List.of(), OptionalInt.empty(), OptionalInt.empty(), "none"));
        for (int c = 0; c < 3; c++) {
            s.client(c, 2);
        }
        final List<KafkaStreamsAssignment> out = byProcess(assignor("kip441").assign(s.build()));
        int actives = 0;
        int standbys = 0;
        for (final KafkaStreamsAssignment a : out) {
            actives += tasks(a, AssignedTask.Type.ACTIVE).size();
            standbys += tasks(a, AssignedTask.Type.STANDBY).size();
        }
        assertEquals(6, actives);
        assertEquals(12, standbys);
    }

    /**
     * Task 1_0 reads two partitions, on racks {r1, r2} and {r2}: only r2 holds both; task 1_1 likewise only r1.
     * Without rack awareness kip441 deals the stateless tasks by process order (1_0 to the r1 process); with
     * {@code min_traffic} KIP-925 puts each on the rack holding all its partitions. Racks are read only then:
     * Kafka fetches them lazily, with an admin call.
     */
    @Test
    void racksComeFromEveryInputPartitionAndOnlyWhenRackAwarenessIsOn() {
        for (final String strategy : List.of("none", "min_traffic")) {
            final int[] fetches = {0};
            final AppStates s = new AppStates()
                .statelessWithRacks(1, 0, List.of(Set.of("r1", "r2"), Set.of("r2")), fetches)
                .statelessWithRacks(1, 1, List.of(Set.of("r1"), Set.of("r1", "r2")), fetches)
                .configs(new AssignmentConfigs(10_000L, 2, 0, 600_000L, List.of(), OptionalInt.empty(),
                    OptionalInt.empty(), strategy));
            s.client(0, 1).rack("r1");
            s.client(1, 1).rack("r2");
            final List<KafkaStreamsAssignment> out = byProcess(assignor("kip441").assign(s.build()));
            final boolean rackAware = strategy.equals("min_traffic");
            assertEquals(Set.of(new TaskId(1, rackAware ? 1 : 0)), tasks(out.get(0), AssignedTask.Type.ACTIVE), strategy);
            assertEquals(Set.of(new TaskId(1, rackAware ? 0 : 1)), tasks(out.get(1), AssignedTask.Type.ACTIVE), strategy);
            assertEquals(rackAware, fetches[0] > 0, strategy + ": rack ids fetched " + fetches[0] + " times");
        }
    }

    @Test
    void aStateTheCoreRejectsIsATaskAssignmentExceptionNamingTheProcess() {
        final AppStates s = new AppStates().stateful(0, 2, 100);
        s.client(0, 1);
        s.client(1, 0);
        final ApplicationState app = s.build();
        final TaskAssignmentException e = assertThrows(TaskAssignmentException.class, () -> assignor("kip441").assign(app));
        assertEquals("smoothscale kip441 could not assign: clients[1] (process " + AppStates.pid(1)
            + ").capacity must be at least 1, got 0", e.getMessage());
        // The cause is the typed exception, with the core's message as the command line prints it.
        assertEquals(SmoothscaleInputException.class, e.getCause().getClass());
        assertEquals("clients[1].capacity must be at least 1, got 0", e.getCause().getMessage());
    }

    @Test
    void namedTopologiesAreRefusedWithTheTask() {
        final AppStates s = new AppStates();
        s.client(0, 1);
        final ApplicationState plain = s.build();
        final TaskId named = new TaskId(0, 0, "orders");
        final ApplicationState app = AppStates.of(plain.kafkaStreamsStates(false), plain.assignmentConfigs(),
            Map.of(named, new org.apache.kafka.streams.processor.internals.assignment.DefaultTaskInfo(
                named, false, Set.of(), Set.of())));
        final TaskAssignmentException e = assertThrows(TaskAssignmentException.class, () -> assignor(null).assign(app));
        assertTrue(e.getMessage().contains("named topology orders"), e.getMessage());
        assertEquals(SmoothscaleInputException.class, e.getCause().getClass());
    }

    @Test
    void aMalformedMessageIsAnExceptionNotACrash() {
        final SmoothscaleException e = assertThrows(SmoothscaleInputException.class,
            () -> NativeBridge.assign("kip441", new byte[] {1, 2, 3}));
        assertEquals("magic (byte 0) must have 4 bytes, got 3 (the message ends at byte 3)", e.getMessage());
        assertThrows(SmoothscaleInputException.class, () -> NativeBridge.assign(null, new byte[0]));
        assertThrows(SmoothscaleInputException.class, () -> NativeBridge.generatePreset("nope", 1));
    }
}
