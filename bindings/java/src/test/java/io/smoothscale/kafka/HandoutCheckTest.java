package io.smoothscale.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/** {@link HandoutCheck} through the native library: Kafka's rules for an assignment as it is handed out. */
class HandoutCheckTest {
    private static final int TASKS = 6;

    /** Six stateful tasks; two processes, each task active on {@code p % 2} and a standby on the other. */
    private static List<List<List<TaskId>>> clients() {
        final List<List<List<TaskId>>> clients = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            clients.add(List.of(new ArrayList<>(), new ArrayList<>()));
        }
        for (int p = 0; p < TASKS; p++) {
            clients.get(p % 2).get(0).add(new TaskId(0, p));
            clients.get((p + 1) % 2).get(1).add(new TaskId(0, p));
        }
        return clients;
    }

    private static Optional<String> check(final List<List<List<TaskId>>> clients) {
        final Map<TaskId, Boolean> tasks = new TreeMap<>();
        for (int p = 0; p < TASKS; p++) {
            tasks.put(new TaskId(0, p), true);
        }
        final HandoutCheck check = new HandoutCheck(1, 2, tasks);
        clients.forEach(c -> check.client(c.get(0), c.get(1)));
        return check.violations();
    }

    @Test
    void anAssignmentKeepingKafkasRulesPasses() {
        assertEquals(Optional.empty(), check(clients()));
    }

    @Test
    void aWarmupIsAStandbyBeyondTheConfiguredOneAndCountsAgainstTheBudget() {
        final List<List<List<TaskId>>> clients = clients();
        clients.add(List.of(List.of(), List.of(new TaskId(0, 0), new TaskId(0, 1))));
        assertEquals(Optional.empty(), check(clients));
        clients.set(2, List.of(List.of(), List.of(new TaskId(0, 0), new TaskId(0, 1), new TaskId(0, 2))));
        assertEquals(Optional.of("plan has 3 warm-ups, limit 2"), check(clients));
    }

    @Test
    void twoThreadsOfOneProcessGivenOneTaskIsAViolation() {
        final List<List<List<TaskId>>> clients = clients();
        clients.get(0).get(0).add(new TaskId(0, 0));
        assertEquals(Optional.of("client c0 is given task 0_0 twice as active"), check(clients));
    }

    @Test
    void aTaskWithoutActiveOrStandbyIsNamed() {
        final List<List<List<TaskId>>> clients = clients();
        clients.get(0).get(0).remove(new TaskId(0, 2));
        clients.get(0).get(1).remove(new TaskId(0, 3));
        final String violations = check(clients).orElseThrow();
        assertTrue(violations.contains("task 0_2 has no active") && violations.contains("task 0_3 has 0 standbys"),
            violations);
    }

    @Test
    void aTaskTheApplicationDoesNotHaveIsRejectedBeforeTheCheck() {
        final HandoutCheck check = new HandoutCheck(1, 2, Map.of(new TaskId(0, 0), true));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> check.client(List.of(new TaskId(1, 0)), List.of()));
        assertEquals("client 0 is handed task 1_0, which is not one of the application's 1 tasks", e.getMessage());
    }
}
