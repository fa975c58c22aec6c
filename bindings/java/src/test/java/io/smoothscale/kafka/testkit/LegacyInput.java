package io.smoothscale.kafka.testkit;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.internals.assignment.ClientState;
import org.apache.kafka.streams.processor.internals.assignment.LegacyTaskAssignor;
import org.apache.kafka.streams.processor.internals.assignment.RackAwareTaskAssignor;

/**
 * The arguments of Kafka's legacy assignor interface
 * ({@code assign(clients, allTasks, statefulTasks, rackAwareTaskAssignor, configs)}) built from a
 * neutral state under one labeling, in the collection types {@code StreamsPartitionAssignor} passes
 * (hash maps and sets). The {@code RackAwareTaskAssignor} has no metadata: with
 * {@code rack.aware.assignment.strategy} {@code none} it answers "cannot enable" before touching any.
 * An input is used once: the assignor mutates its {@code ClientState}s.
 */
public final class LegacyInput {
    private final Labeling labeling;
    private final Map<ProcessId, ClientState> clients = new HashMap<>();
    private final Set<TaskId> allTasks = new HashSet<>();
    private final Set<TaskId> statefulTasks = new HashSet<>();
    private final AssignmentConfigs configs;
    private final RackAwareTaskAssignor rackAware;

    /** Builds the arguments; lag totals may be shared with a KIP-924 state of the same labeling. */
    public LegacyInput(final AppSpec spec, final Labeling labeling, final Map<Integer, Map<TaskId, Long>> lagTotals) {
        if (!"none".equals(spec.rackAwareStrategy())) {
            throw new IllegalArgumentException("the legacy input supports rack.aware.assignment.strategy none only");
        }
        this.labeling = labeling;
        this.configs = spec.assignmentConfigs();
        for (int t = 0; t < spec.tasks().size(); t++) {
            allTasks.add(labeling.taskId(t));
            if (spec.tasks().get(t).stateful()) {
                statefulTasks.add(labeling.taskId(t));
            }
        }
        for (int rank = 0; rank < spec.clients().size(); rank++) {
            final ClientSpec client = spec.clients().get(rank);
            final ProcessId id = labeling.processId(rank);
            clients.put(id, new ClientState(taskIds(client.prevActive()), taskIds(client.prevStandby()),
                lagTotals.get(rank), client.tags(), client.capacity(), id));
        }
        this.rackAware = new RackAwareTaskAssignor(null, Collections.emptyMap(), Collections.emptyMap(),
            Collections.emptyMap(), null, null, configs, Time.SYSTEM);
    }

    /** Builds the arguments with lag totals of their own. */
    public static LegacyInput of(final AppSpec spec, final Labeling labeling) {
        final Map<Integer, Map<TaskId, Long>> lags = new HashMap<>();
        for (int rank = 0; rank < spec.clients().size(); rank++) {
            lags.put(rank, LagTotals.of(spec, labeling, rank));
        }
        return new LegacyInput(spec, labeling, lags);
    }

    private SortedSet<TaskId> taskIds(final Set<Integer> tasks) {
        final SortedSet<TaskId> ids = new TreeSet<>();
        for (final int t : tasks) {
            ids.add(labeling.taskId(t));
        }
        return ids;
    }

    /** Runs a legacy assignor on these arguments and reads its result back in neutral terms. */
    public Outcome run(final LegacyTaskAssignor assignor) {
        final boolean followup = assignor.assign(clients, allTasks, statefulTasks, rackAware, configs);
        return Outcome.of(clients, labeling, followup);
    }
}
