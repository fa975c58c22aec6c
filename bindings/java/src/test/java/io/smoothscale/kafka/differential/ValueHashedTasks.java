package io.smoothscale.kafka.differential;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskInfo;
import org.apache.kafka.streams.processor.assignment.TaskTopicPartition;

/**
 * An {@code ApplicationState} whose {@code TaskInfo}s hash like their task ids. Kafka's
 * {@code DefaultTaskInfo} keeps {@code Object}'s identity hash code, and the KIP-924
 * {@code StickyTaskAssignor} places standbys in the order of a {@code HashSet<TaskInfo>}: as Kafka
 * runs, that order changes from one JVM to the next. Hashing by task id makes the differential
 * reproducible; the labelings (named topologies) still vary that order.
 */
final class ValueHashedTasks implements ApplicationState {
    private final ApplicationState state;
    private final Map<TaskId, TaskInfo> tasks = new HashMap<>();

    ValueHashedTasks(final ApplicationState state) {
        this.state = state;
        state.allTasks().forEach((id, info) -> tasks.put(id, new Info(info)));
    }

    @Override
    public Map<ProcessId, KafkaStreamsState> kafkaStreamsStates(final boolean computeTaskLags) {
        return state.kafkaStreamsStates(computeTaskLags);
    }

    @Override
    public AssignmentConfigs assignmentConfigs() {
        return state.assignmentConfigs();
    }

    @Override
    public Map<TaskId, TaskInfo> allTasks() {
        return tasks;
    }

    /** A task info equal to another of the same task id, and hashed like it. */
    private record Info(TaskInfo info) implements TaskInfo {
        @Override
        public TaskId id() {
            return info.id();
        }

        @Override
        public boolean isStateful() {
            return info.isStateful();
        }

        @Override
        public Set<String> stateStoreNames() {
            return info.stateStoreNames();
        }

        @Override
        public Set<TaskTopicPartition> topicPartitions() {
            return info.topicPartitions();
        }

        @Override
        public boolean equals(final Object other) {
            return other instanceof Info that && id().equals(that.id());
        }

        @Override
        public int hashCode() {
            return id().hashCode();
        }
    }
}
