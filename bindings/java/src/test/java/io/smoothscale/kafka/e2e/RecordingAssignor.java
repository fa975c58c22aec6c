package io.smoothscale.kafka.e2e;

import io.smoothscale.kafka.SmoothscaleTaskAssignor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.TaskAssignor;

/**
 * Kafka Streams' {@code task.assignor.class} in the end-to-end test: our {@link SmoothscaleTaskAssignor},
 * recording every assignment it hands to the group leader (with the tasks that existed) so the test can check
 * them after the run.
 */
public final class RecordingAssignor implements TaskAssignor {
    /** One rebalance: the application's tasks and the assignment returned for them. */
    record Rebalance(List<TaskId> tasks, TaskAssignment assignment) {
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
        REBALANCES.add(new Rebalance(applicationState.allTasks().keySet().stream().sorted().toList(), out));
        return out;
    }

    @Override
    public void onAssignmentComputed(final GroupAssignment assignment, final GroupSubscription subscription,
                                     final AssignmentError error) {
        delegate.onAssignmentComputed(assignment, subscription, error);
    }
}
