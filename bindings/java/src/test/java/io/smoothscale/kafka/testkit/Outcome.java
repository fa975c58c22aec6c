package io.smoothscale.kafka.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment.AssignedTask;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskAssignor.TaskAssignment;
import org.apache.kafka.streams.processor.internals.assignment.ClientState;

/**
 * An assignment in neutral terms: per client rank, the active tasks and the standby tasks (warm-ups
 * included, as Kafka's {@code ClientState.standbyTasks()} and the KIP-924 API both hold them), by
 * task index; and whether a follow-up rebalance is requested. Two outcomes are equal when every
 * client's sets are equal and both request a follow-up or neither does.
 *
 * @param clients  per client rank, its tasks
 * @param followup whether a follow-up (probing) rebalance is requested
 */
public record Outcome(List<Tasks> clients, boolean followup) {

    /**
     * One client's tasks.
     *
     * @param active  active task indices
     * @param standby standby and warm-up task indices
     */
    public record Tasks(SortedSet<Integer> active, SortedSet<Integer> standby) {
    }

    /** Reads Kafka's legacy result: the assigned {@code ClientState}s and the assignor's return value. */
    public static Outcome of(final Map<ProcessId, ClientState> states, final Labeling labeling, final boolean followup) {
        final List<Tasks> clients = empty(states.size());
        for (final Map.Entry<ProcessId, ClientState> entry : states.entrySet()) {
            final Tasks tasks = clients.get(labeling.rank(entry.getKey()));
            for (final TaskId id : entry.getValue().activeTasks()) {
                tasks.active().add(labeling.taskIndex(id));
            }
            for (final TaskId id : entry.getValue().standbyTasks()) {
                tasks.standby().add(labeling.taskIndex(id));
            }
        }
        return new Outcome(freeze(clients), followup);
    }

    /** Reads a KIP-924 result; a follow-up is requested when any client carries a deadline. */
    public static Outcome of(final TaskAssignment assignment, final Labeling labeling, final int clientCount) {
        final List<Tasks> clients = empty(clientCount);
        boolean followup = false;
        for (final KafkaStreamsAssignment client : assignment.assignment()) {
            final Tasks tasks = clients.get(labeling.rank(client.processId()));
            for (final AssignedTask task : client.tasks().values()) {
                final int index = labeling.taskIndex(task.id());
                if (task.type() == AssignedTask.Type.ACTIVE) {
                    tasks.active().add(index);
                } else {
                    tasks.standby().add(index);
                }
            }
            followup |= client.followupRebalanceDeadline().isPresent();
        }
        return new Outcome(freeze(clients), followup);
    }

    private static List<Tasks> empty(final int count) {
        final List<Tasks> clients = new ArrayList<>(count);
        for (int rank = 0; rank < count; rank++) {
            clients.add(new Tasks(new TreeSet<>(), new TreeSet<>()));
        }
        return clients;
    }

    private static List<Tasks> freeze(final List<Tasks> clients) {
        final List<Tasks> frozen = new ArrayList<>(clients.size());
        for (final Tasks tasks : clients) {
            frozen.add(new Tasks(Collections.unmodifiableSortedSet(tasks.active()),
                Collections.unmodifiableSortedSet(tasks.standby())));
        }
        return List.copyOf(frozen);
    }

    /** One client a line: {@code client r: active=[…] standby=[…]}, then the follow-up flag. */
    public String describe() {
        final StringBuilder out = new StringBuilder();
        for (int rank = 0; rank < clients.size(); rank++) {
            out.append("  client ").append(rank).append(": active=").append(clients.get(rank).active())
                .append(" standby=").append(clients.get(rank).standby()).append('\n');
        }
        return out.append("  followup=").append(followup).append('\n').toString();
    }
}
