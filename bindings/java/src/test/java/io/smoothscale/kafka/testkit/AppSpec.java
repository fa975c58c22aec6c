package io.smoothscale.kafka.testkit;

import java.util.List;
import java.util.OptionalInt;

import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;

/**
 * A neutral description of one rebalance's input, from which both Kafka's legacy {@code ClientState}s
 * and a KIP-924 {@code ApplicationState} are built, so every assignor sees the same state.
 * Clients are listed in rank order: the order of their process ids.
 *
 * @param numStandbyReplicas        {@code num.standby.replicas}
 * @param acceptableRecoveryLag     {@code acceptable.recovery.lag}
 * @param maxWarmupReplicas         {@code max.warmup.replicas}
 * @param probingRebalanceIntervalMs {@code probing.rebalance.interval.ms}
 * @param rackAwareTags             {@code rack.aware.assignment.tags}
 * @param rackAwareStrategy         {@code rack.aware.assignment.strategy}
 * @param tasks                     every task of the topology, in Kafka's task id order
 * @param clients                   every client, in rank order
 */
public record AppSpec(int numStandbyReplicas, long acceptableRecoveryLag, int maxWarmupReplicas,
                      long probingRebalanceIntervalMs, List<String> rackAwareTags, String rackAwareStrategy,
                      List<TaskSpec> tasks, List<ClientSpec> clients) {

    /** Kafka's value for "running": the client reported the task as its running active. */
    public static final long RUNNING = -2L;
    /** Kafka's value for "unknown": the client has state for the task but could not read its offsets. */
    public static final long UNKNOWN = -3L;

    /** The lag Kafka computes for a stateful task on a client: its report, or the end offset when it reported none. */
    public long lag(final int client, final int task) {
        final Long reported = clients.get(client).reported().get(task);
        return reported != null ? reported : tasks.get(task).endOffset();
    }

    /** Kafka's {@code AssignmentConfigs} for this state (traffic and non-overlap costs unset). */
    public AssignmentConfigs assignmentConfigs() {
        return new AssignmentConfigs(acceptableRecoveryLag, maxWarmupReplicas, numStandbyReplicas,
            probingRebalanceIntervalMs, rackAwareTags, OptionalInt.empty(), OptionalInt.empty(), rackAwareStrategy);
    }

    /** The whole state, one client a line, for a failure report that can be read without the code. */
    public String describe() {
        final StringBuilder out = new StringBuilder();
        out.append("config: num.standby.replicas=").append(numStandbyReplicas)
            .append(" acceptable.recovery.lag=").append(acceptableRecoveryLag)
            .append(" max.warmup.replicas=").append(maxWarmupReplicas)
            .append(" rack.aware.assignment.tags=").append(rackAwareTags)
            .append(" rack.aware.assignment.strategy=").append(rackAwareStrategy).append('\n');
        out.append("tasks (index name stateful end_offset):");
        for (int t = 0; t < tasks.size(); t++) {
            final TaskSpec task = tasks.get(t);
            out.append(' ').append(t).append('=').append(task.name())
                .append(task.stateful() ? "/S/" + task.endOffset() : "/-");
        }
        out.append('\n');
        for (int c = 0; c < clients.size(); c++) {
            final ClientSpec client = clients.get(c);
            out.append("client ").append(c).append(": capacity=").append(client.capacity())
                .append(" rack=").append(client.rack()).append(" tags=").append(client.tags())
                .append(" prevActive=").append(client.prevActive())
                .append(" prevStandby=").append(client.prevStandby())
                .append(" reported(task=lag)=").append(client.reported()).append('\n');
        }
        return out.toString();
    }
}
