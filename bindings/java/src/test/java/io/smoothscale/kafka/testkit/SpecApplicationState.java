package io.smoothscale.kafka.testkit;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskInfo;
import org.apache.kafka.streams.processor.assignment.TaskTopicPartition;
import org.apache.kafka.streams.processor.internals.assignment.DefaultKafkaStreamsState;
import org.apache.kafka.streams.processor.internals.assignment.DefaultTaskInfo;
import org.apache.kafka.streams.processor.internals.assignment.DefaultTaskTopicPartition;

/**
 * A KIP-924 {@code ApplicationState} built from a neutral state under one labeling, out of Kafka's own
 * {@code DefaultKafkaStreamsState}, {@code DefaultTaskInfo} and {@code DefaultTaskTopicPartition}
 * ({@code DefaultApplicationState} needs the partition assignor's internals). As in Kafka, the
 * streams states carry lags only when asked for them, and a client's consumers
 * ({@code <rank>-StreamThread-<k>}, one per thread) hold the tasks it reported offsets for, task t on
 * thread t mod capacity. Partitions: the input {@code s<subtopology>-input}, and for a stateful task
 * the changelog {@code app-s<subtopology>-store-changelog}, both of the task's partition number,
 * annotated with the spec's racks.
 */
public final class SpecApplicationState implements ApplicationState {
    private final AppSpec spec;
    private final Labeling labeling;
    private final Map<Integer, Map<TaskId, Long>> lagTotals;
    private final Map<TaskId, TaskInfo> tasks = new HashMap<>();
    private final Map<Boolean, Map<ProcessId, KafkaStreamsState>> states = new HashMap<>();

    /** A state whose lag totals may be shared with a legacy input of the same labeling. */
    public SpecApplicationState(final AppSpec spec, final Labeling labeling,
                                final Map<Integer, Map<TaskId, Long>> lagTotals) {
        this.spec = spec;
        this.labeling = labeling;
        this.lagTotals = lagTotals;
        for (int t = 0; t < spec.tasks().size(); t++) {
            final TaskSpec task = spec.tasks().get(t);
            final Set<TaskTopicPartition> partitions = new HashSet<>();
            partitions.add(partition("s" + task.subtopology() + "-input", task, true, false, task.inputRacks()));
            if (task.stateful()) {
                partitions.add(partition("app-s" + task.subtopology() + "-store-changelog", task, false, true,
                    task.changelogRacks()));
            }
            final TaskId id = labeling.taskId(t);
            tasks.put(id, new DefaultTaskInfo(id, task.stateful(),
                task.stateful() ? Set.of("s" + task.subtopology() + "-store") : Set.of(), partitions));
        }
    }

    /** A state with lag totals of its own. */
    public static SpecApplicationState of(final AppSpec spec, final Labeling labeling) {
        final Map<Integer, Map<TaskId, Long>> lags = new HashMap<>();
        for (int rank = 0; rank < spec.clients().size(); rank++) {
            lags.put(rank, LagTotals.of(spec, labeling, rank));
        }
        return new SpecApplicationState(spec, labeling, lags);
    }

    private static TaskTopicPartition partition(final String topic, final TaskSpec task, final boolean source,
                                                final boolean changelog, final List<String> racks) {
        final DefaultTaskTopicPartition partition = new DefaultTaskTopicPartition(
            new TopicPartition(topic, task.partition()), source, changelog, () -> { });
        partition.annotateWithRackIds(new HashSet<>(racks));
        return partition;
    }

    /** The streams states, built on the first call for each value of the flag and kept, as Kafka's are. */
    @Override
    public Map<ProcessId, KafkaStreamsState> kafkaStreamsStates(final boolean computeTaskLags) {
        return states.computeIfAbsent(computeTaskLags, this::build);
    }

    private Map<ProcessId, KafkaStreamsState> build(final boolean computeTaskLags) {
        final Map<ProcessId, KafkaStreamsState> built = new HashMap<>();
        for (int rank = 0; rank < spec.clients().size(); rank++) {
            final ClientSpec client = spec.clients().get(rank);
            final ProcessId id = labeling.processId(rank);
            built.put(id, new DefaultKafkaStreamsState(id, client.capacity(), client.tags(),
                taskIds(client.prevActive()), taskIds(client.prevStandby()), consumers(rank, client),
                Optional.empty(), computeTaskLags ? Optional.of(lagTotals.get(rank)) : Optional.empty(),
                Optional.ofNullable(client.rack())));
        }
        return built;
    }

    private SortedMap<String, Set<TaskId>> consumers(final int rank, final ClientSpec client) {
        final SortedMap<String, Set<TaskId>> consumers = new TreeMap<>();
        for (int thread = 0; thread < client.capacity(); thread++) {
            consumers.put(rank + "-StreamThread-" + (thread + 1), new HashSet<>());
        }
        for (final int t : client.reported().keySet()) {
            consumers.get(rank + "-StreamThread-" + (t % client.capacity() + 1)).add(labeling.taskId(t));
        }
        return consumers;
    }

    private SortedSet<TaskId> taskIds(final Set<Integer> indices) {
        final SortedSet<TaskId> ids = new TreeSet<>();
        for (final int t : indices) {
            ids.add(labeling.taskId(t));
        }
        return ids;
    }

    @Override
    public AssignmentConfigs assignmentConfigs() {
        return spec.assignmentConfigs();
    }

    @Override
    public Map<TaskId, TaskInfo> allTasks() {
        return tasks;
    }
}
