package io.smoothscale.kafka.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.ClientSpec;
import io.smoothscale.kafka.testkit.TaskSpec;

/**
 * Random application states for the differential: 1–3 subtopologies of 1–12 partitions, each
 * subtopology stateful or stateless; 1–9 clients of 1–4 threads; 0–2 standbys, 1–3 warm-ups;
 * {@code acceptable.recovery.lag} from 0 to unbounded; client tags with
 * {@code rack.aware.assignment.tags} in a third of the states; a previous assignment (or none) with
 * reports that are mostly plausible (the active's owner reports running, standby owners small lags)
 * and sometimes not: unknown offsets, missing reports, lags above the acceptable one.
 */
final class StateGenerator {
    private static final long[] ACCEPTABLE_LAGS = {0, 10, 100, 1_000, 10_000};
    private static final String[] RACKS = {"r0", "r1", "r2"};

    private StateGenerator() {
    }

    /** A random state drawn from {@code random}. */
    static AppSpec generate(final SplittableRandom random) {
        final long acceptable = random.nextInt(50) == 0 ? Long.MAX_VALUE : ACCEPTABLE_LAGS[random.nextInt(ACCEPTABLE_LAGS.length)];
        final List<TaskSpec> tasks = tasks(random, acceptable);
        final int clientCount = random.nextInt(8) == 0 ? 9 : 1 + random.nextInt(7);
        final List<String> tagKeys = random.nextInt(3) == 0
            ? (random.nextBoolean() ? List.of("zone") : List.of("cluster", "zone"))
            : List.of();
        final int standbys = random.nextInt(3);
        final boolean fresh = random.nextInt(5) == 0;
        final int[] activeOwner = new int[tasks.size()];
        final List<SortedSet<Integer>> standbyOwners = new ArrayList<>();
        for (int t = 0; t < tasks.size(); t++) {
            activeOwner[t] = !fresh && random.nextInt(10) < 8 ? random.nextInt(clientCount) : -1;
            final SortedSet<Integer> owners = new TreeSet<>();
            if (!fresh && tasks.get(t).stateful()) {
                final int wanted = random.nextInt(standbys + 2);
                for (int k = 0; k < wanted; k++) {
                    final int owner = random.nextInt(clientCount);
                    if (owner != activeOwner[t]) {
                        owners.add(owner);
                    }
                }
            }
            standbyOwners.add(owners);
        }
        final List<ClientSpec> clients = new ArrayList<>();
        for (int c = 0; c < clientCount; c++) {
            final SortedSet<Integer> prevActive = new TreeSet<>();
            final SortedSet<Integer> prevStandby = new TreeSet<>();
            final SortedMap<Integer, Long> reported = new TreeMap<>();
            for (int t = 0; t < tasks.size(); t++) {
                final TaskSpec task = tasks.get(t);
                final boolean active = activeOwner[t] == c;
                final boolean standby = standbyOwners.get(t).contains(c);
                if (active) {
                    prevActive.add(t);
                } else if (standby) {
                    prevStandby.add(t);
                }
                if (task.stateful()) {
                    final Long report = report(random, task, acceptable, active, standby);
                    if (report != null) {
                        reported.put(t, report);
                    }
                }
            }
            clients.add(new ClientSpec(1 + random.nextInt(4), random.nextBoolean() ? RACKS[random.nextInt(3)] : null,
                tags(random, tagKeys), prevActive, prevStandby, reported));
        }
        return new AppSpec(standbys, acceptable, 1 + random.nextInt(3), 600_000L, tagKeys, "none", tasks, clients);
    }

    private static List<TaskSpec> tasks(final SplittableRandom random, final long acceptable) {
        final List<TaskSpec> tasks = new ArrayList<>();
        final int subtopologies = 1 + random.nextInt(3);
        final long scale = acceptable == Long.MAX_VALUE ? 10_000 : Math.max(10, acceptable);
        for (int s = 0; s < subtopologies; s++) {
            final int partitions = random.nextInt(6) == 0 ? 9 + random.nextInt(4) : 1 + random.nextInt(8);
            final boolean stateful = random.nextInt(10) < 7;
            for (int p = 0; p < partitions; p++) {
                tasks.add(new TaskSpec(s, p, stateful, stateful ? random.nextLong(3 * scale + 1) : 0,
                    List.of(RACKS[random.nextInt(3)]), stateful ? List.of(RACKS[random.nextInt(3)]) : List.of()));
            }
        }
        return tasks;
    }

    /** A client's report for a stateful task, or {@code null} for none. */
    static Long report(final SplittableRandom random, final TaskSpec task, final long acceptable,
                       final boolean active, final boolean standby) {
        final int roll = random.nextInt(100);
        if (active && roll < 85 || !active && roll < 3) {
            return AppSpec.RUNNING;
        }
        if (roll < 8) {
            return AppSpec.UNKNOWN;
        }
        if (!active && !standby && roll < 60) {
            return null;
        }
        if (standby && roll < 80) {
            return random.nextLong(Math.min(task.endOffset(), acceptable == Long.MAX_VALUE ? 100 : acceptable) + 1);
        }
        return random.nextLong(task.endOffset() + 1);
    }

    private static SortedMap<String, String> tags(final SplittableRandom random, final List<String> keys) {
        final SortedMap<String, String> tags = new TreeMap<>();
        for (final String key : keys) {
            tags.put(key, key.charAt(0) + Integer.toString(random.nextInt(key.equals("zone") ? 3 : 2)));
        }
        if (keys.isEmpty() && random.nextInt(10) == 0) {
            tags.put("zone", "z" + random.nextInt(3));
        }
        return tags;
    }
}
