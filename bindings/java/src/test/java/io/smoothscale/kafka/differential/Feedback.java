package io.smoothscale.kafka.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.ClientSpec;
import io.smoothscale.kafka.testkit.Outcome;
import io.smoothscale.kafka.testkit.TaskSpec;

/**
 * The next rebalance of a chain: the previous actives and standbys are the last assignment, the end
 * offsets grow, and the owners report plausibly: an active's owner reports running, a standby's
 * (or warm-up's) owner a lag that has shrunk towards the acceptable one, other clients keep half of
 * their old reports (state left on disk) and drop the rest. One time in eight a client leaves or a
 * new one (no state, no reports) joins.
 */
final class Feedback {
    private Feedback() {
    }

    /** The state after {@code last} was applied to {@code spec}. */
    static AppSpec next(final AppSpec spec, final Outcome last, final SplittableRandom random) {
        final List<TaskSpec> tasks = new ArrayList<>();
        for (final TaskSpec task : spec.tasks()) {
            tasks.add(task.stateful()
                ? new TaskSpec(task.subtopology(), task.partition(), true,
                    task.endOffset() + random.nextLong(Math.max(1, Math.min(spec.acceptableRecoveryLag(), 1_000)) + 1),
                    task.inputRacks(), task.changelogRacks())
                : task);
        }
        final List<ClientSpec> clients = new ArrayList<>();
        for (int c = 0; c < spec.clients().size(); c++) {
            clients.add(client(spec, tasks, c, last.clients().get(c), random));
        }
        final int change = random.nextInt(16);
        if (change == 0 && clients.size() > 1) {
            clients.remove(random.nextInt(clients.size()));
        } else if (change == 1 && clients.size() < 9) {
            clients.add(random.nextInt(clients.size() + 1), new ClientSpec(1 + random.nextInt(4), null,
                clients.get(0).tags(), new TreeSet<>(), new TreeSet<>(), new TreeMap<>()));
        }
        return new AppSpec(spec.numStandbyReplicas(), spec.acceptableRecoveryLag(), spec.maxWarmupReplicas(),
            spec.probingRebalanceIntervalMs(), spec.rackAwareTags(), spec.rackAwareStrategy(), tasks, clients);
    }

    private static ClientSpec client(final AppSpec spec, final List<TaskSpec> tasks, final int c,
                                     final Outcome.Tasks assigned, final SplittableRandom random) {
        final ClientSpec old = spec.clients().get(c);
        final SortedMap<Integer, Long> reported = new TreeMap<>();
        for (int t = 0; t < tasks.size(); t++) {
            final TaskSpec task = tasks.get(t);
            if (!task.stateful()) {
                continue;
            }
            if (assigned.active().contains(t)) {
                reported.put(t, AppSpec.RUNNING);
            } else if (assigned.standby().contains(t)) {
                final long before = spec.lag(c, t) < 0 ? 0 : spec.lag(c, t);
                final long bound = spec.acceptableRecoveryLag() == Long.MAX_VALUE ? 100 : spec.acceptableRecoveryLag();
                reported.put(t, Math.min(task.endOffset(), random.nextLong(Math.min(before, 2 * bound) + 1)));
            } else if (old.reported().containsKey(t) && random.nextBoolean()) {
                final long lag = old.reported().get(t);
                reported.put(t, lag < 0 ? random.nextLong(task.endOffset() + 1) : Math.min(task.endOffset(), lag + 1));
            }
        }
        return new ClientSpec(old.capacity(), old.rack(), old.tags(), new TreeSet<>(assigned.active()),
            new TreeSet<>(assigned.standby()), reported);
    }
}
