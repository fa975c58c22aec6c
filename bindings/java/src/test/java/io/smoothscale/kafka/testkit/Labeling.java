package io.smoothscale.kafka.testkit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ProcessId;

/**
 * The Kafka identities given to a neutral state's clients and tasks. A labeling keeps the order:
 * client rank r gets a UUID whose most significant long is r + 1 (Java's {@code UUID.compareTo}
 * compares that long first), with a random least significant long, so only the hash codes change
 * from one labeling to the next. Tasks keep their (subtopology, partition) and may carry a named
 * topology, the same name on every task: that keeps {@code TaskId.compareTo}'s order and changes
 * the tasks' hash codes.
 */
public final class Labeling {
    private final List<ProcessId> processIds;
    private final Map<ProcessId, Integer> ranks;
    private final String topologyName;
    private final List<TaskId> taskIds;
    private final Map<TaskId, Integer> taskIndices;

    private Labeling(final List<ProcessId> processIds, final String topologyName, final List<TaskSpec> tasks) {
        this.processIds = List.copyOf(processIds);
        this.ranks = new HashMap<>();
        for (int rank = 0; rank < processIds.size(); rank++) {
            ranks.put(processIds.get(rank), rank);
        }
        this.topologyName = topologyName;
        this.taskIds = new ArrayList<>(tasks.size());
        this.taskIndices = new HashMap<>();
        for (int t = 0; t < tasks.size(); t++) {
            final TaskSpec task = tasks.get(t);
            final TaskId id = topologyName == null
                ? new TaskId(task.subtopology(), task.partition())
                : new TaskId(task.subtopology(), task.partition(), topologyName);
            taskIds.add(id);
            taskIndices.put(id, t);
        }
    }

    /**
     * An order-preserving labeling of a state's clients and tasks.
     *
     * @param spec         the state
     * @param seed         seeds the UUIDs' least significant longs
     * @param topologyName the named topology put on every task id, or {@code null} for plain task ids
     */
    public static Labeling of(final AppSpec spec, final long seed, final String topologyName) {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<ProcessId> ids = new ArrayList<>(spec.clients().size());
        for (int rank = 0; rank < spec.clients().size(); rank++) {
            ids.add(new ProcessId(new UUID(rank + 1L, random.nextLong())));
        }
        return new Labeling(ids, topologyName, spec.tasks());
    }

    /**
     * The labeling whose process ids hash in rank order: UUIDs (r + 1, 0) hash to r + 1, so a hash map
     * or set of up to 2^30 clients iterates them in ascending order. Task ids are plain.
     */
    public static Labeling ascending(final AppSpec spec) {
        final List<ProcessId> ids = new ArrayList<>(spec.clients().size());
        for (int rank = 0; rank < spec.clients().size(); rank++) {
            ids.add(new ProcessId(new UUID(rank + 1L, 0L)));
        }
        return new Labeling(ids, null, spec.tasks());
    }

    /**
     * The labeling of a live state: its real process ids, in rank order, and plain task ids.
     *
     * @param spec the state
     * @param processIds the process id of each client rank
     */
    public static Labeling of(final AppSpec spec, final List<ProcessId> processIds) {
        if (processIds.size() != spec.clients().size()) {
            throw new IllegalArgumentException(processIds.size() + " process ids for " + spec.clients().size() + " clients");
        }
        return new Labeling(processIds, null, spec.tasks());
    }

    /** The process id of the client of this rank. */
    public ProcessId processId(final int rank) {
        return processIds.get(rank);
    }

    /** The rank of a process id of this labeling. */
    public int rank(final ProcessId id) {
        final Integer rank = ranks.get(id);
        if (rank == null) {
            throw new IllegalArgumentException("process " + id + " is not in this labeling");
        }
        return rank;
    }

    /** The task id of the task at this index. */
    public TaskId taskId(final int task) {
        return taskIds.get(task);
    }

    /** The index of a task id of this labeling. */
    public int taskIndex(final TaskId id) {
        final Integer index = taskIndices.get(id);
        if (index == null) {
            throw new IllegalArgumentException("task " + id + " is not in this labeling");
        }
        return index;
    }

    /** How this labeling names things, for a report. */
    @Override
    public String toString() {
        return "processIds=" + processIds + (topologyName == null ? "" : " topology=" + topologyName);
    }
}
