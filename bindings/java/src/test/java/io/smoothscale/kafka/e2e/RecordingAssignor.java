package io.smoothscale.kafka.e2e;

import io.smoothscale.kafka.SmoothscaleTaskAssignor;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment.AssignedTask;
import org.apache.kafka.streams.processor.assignment.TaskAssignor;

/**
 * Kafka Streams' {@code task.assignor.class} in the end-to-end tests: our {@link SmoothscaleTaskAssignor},
 * recording every assignment it hands to the group leader (with the tasks that existed) so the test can check
 * them after the run, and printing one line per assignment ({@code ASSIGNMENT one-active=… warm-ups=…
 * followup=…}) for instances that run as their own processes.
 */
public final class RecordingAssignor implements TaskAssignor {
    /** One rebalance: the application's tasks and the assignment returned for them. */
    record Rebalance(List<TaskId> tasks, TaskAssignment assignment) {
        /** Every task of the application is active on exactly one process. */
        boolean oneActivePerTask() {
            final Map<TaskId, Integer> actives = new HashMap<>();
            for (final KafkaStreamsAssignment a : assignment.assignment()) {
                for (final AssignedTask t : a.tasks().values()) {
                    if (t.type() == AssignedTask.Type.ACTIVE) {
                        actives.merge(t.id(), 1, Integer::sum);
                    }
                }
            }
            return actives.keySet().equals(new HashSet<>(tasks)) && actives.values().stream().allMatch(n -> n == 1);
        }

        /** Standby tasks beyond {@code standbysPerTask} per stateful task: the warm-ups (all tasks are stateful here). */
        long warmups() {
            final long standbys = assignment.assignment().stream().flatMap(a -> a.tasks().values().stream())
                .filter(t -> t.type() == AssignedTask.Type.STANDBY).count();
            return Math.max(0, standbys - tasks.size());
        }

        /** A follow-up rebalance was asked for. */
        boolean followup() {
            return assignment.assignment().stream().anyMatch(a -> a.followupRebalanceDeadline().isPresent());
        }
    }

    /** Every rebalance this JVM's leaders computed, in order. */
    static final List<Rebalance> REBALANCES = new CopyOnWriteArrayList<>();

    private final SmoothscaleTaskAssignor delegate = new SmoothscaleTaskAssignor();

    /** Kafka Streams creates the assignor reflectively. */
    public RecordingAssignor() {
    }

    @Override
    public void configure(final Map<String, ?> configs) {
        delegate.configure(configs);
    }

    @Override
    public TaskAssignment assign(final ApplicationState applicationState) {
        final TaskAssignment out = delegate.assign(applicationState);
        final Rebalance r = new Rebalance(applicationState.allTasks().keySet().stream().sorted().toList(), out);
        REBALANCES.add(r);
        System.out.println("ASSIGNMENT one-active=" + r.oneActivePerTask() + " warm-ups=" + r.warmups()
            + " followup=" + r.followup());
        Timeline.event("assignment", "warm-ups=" + r.warmups() + " followup=" + r.followup());
        return out;
    }

    @Override
    public void onAssignmentComputed(final GroupAssignment assignment, final GroupSubscription subscription,
                                     final AssignmentError error) {
        delegate.onAssignmentComputed(assignment, subscription, error);
    }
}
