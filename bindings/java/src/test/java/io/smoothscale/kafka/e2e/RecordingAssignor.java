package io.smoothscale.kafka.e2e;

import io.smoothscale.kafka.HandoutCheck;
import io.smoothscale.kafka.LiveStates;
import io.smoothscale.kafka.SmoothscaleTaskAssignor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment.AssignedTask;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskAssignor;
import org.apache.kafka.streams.processor.assignment.TaskInfo;
import org.apache.kafka.streams.processor.assignment.TaskTopicPartition;
import org.apache.kafka.streams.processor.internals.assignment.AssignmentInfo;
import org.apache.kafka.streams.processor.internals.assignment.SubscriptionInfo;

/**
 * Kafka Streams' {@code task.assignor.class} in the end-to-end tests: our {@link SmoothscaleTaskAssignor}, plus
 * timeline events per rebalance on the group leader's standard output. {@code assignment warm-ups=… followup=…}
 * says what our assignor returned; {@code input-rates known=K/N total=R} how many of the N tasks the core read an
 * input rate for in the state our assignor sent, and their sum in records per second; with {@code kip441},
 * {@code kafka-agreement} says whether Kafka's own
 * assignor gives the same plan for the same live state ({@link KafkaAgreement}); {@code handout valid …} or
 * {@code handout invalid: …} is the check, with
 * {@link HandoutCheck}, of what Kafka then handed to the members: every consumer's assignment, decoded from the
 * bytes Kafka sends it and gathered by process. A task the cooperative protocol holds back for one round (its
 * partitions are still owned by another process, which must give them up first) is checked on the process the
 * assignor chose and counted as {@code deferred}; any other task without an active is a violation.
 */
public final class RecordingAssignor implements TaskAssignor {
    /** The tasks and replica settings of the last rebalance this JVM led, for the check that follows it. */
    private static volatile Pending pending;

    private record Pending(Map<TaskId, Boolean> tasks, int standbys, int warmups, Map<TaskId, ProcessId> activeOn,
                           Map<TopicPartition, TaskId> sources) {
    }

    private final SmoothscaleTaskAssignor delegate = new SmoothscaleTaskAssignor();
    private String strategy = "kip441";

    /** Kafka Streams creates the assignor reflectively. */
    public RecordingAssignor() {
    }

    @Override
    public void configure(final Map<String, ?> configs) {
        delegate.configure(configs);
        if (configs.get("smoothscale.strategy") instanceof String name) {
            strategy = name;
        }
    }

    @Override
    public TaskAssignment assign(final ApplicationState applicationState) {
        final TaskAssignment out = delegate.assign(applicationState);
        final Map<TaskId, Boolean> tasks = new TreeMap<>();
        final Map<TopicPartition, TaskId> sources = new HashMap<>();
        for (final TaskInfo t : applicationState.allTasks().values()) {
            tasks.put(t.id(), t.isStateful());
            t.topicPartitions().stream().filter(TaskTopicPartition::isSource)
                .forEach(tp -> sources.put(tp.topicPartition(), t.id()));
        }
        final Map<TaskId, ProcessId> activeOn = new HashMap<>();
        for (final KafkaStreamsAssignment a : out.assignment()) {
            a.tasks().values().stream().filter(t -> t.type() == AssignedTask.Type.ACTIVE)
                .forEach(t -> activeOn.put(t.id(), a.processId()));
        }
        pending = new Pending(tasks, applicationState.assignmentConfigs().numStandbyReplicas(),
            applicationState.assignmentConfigs().maxWarmupReplicas(), activeOn, sources);
        long standbys = 0;
        boolean followup = false;
        for (final KafkaStreamsAssignment a : out.assignment()) {
            standbys += a.tasks().values().stream().filter(t -> t.type() == AssignedTask.Type.STANDBY).count();
            followup |= a.followupRebalanceDeadline().isPresent();
        }
        final long stateful = tasks.values().stream().filter(s -> s).count();
        final long wanted = stateful * Math.min(pending.standbys(), out.assignment().size() - 1);
        Timeline.event("assignment", "warm-ups=" + Math.max(0, standbys - wanted) + " followup=" + followup);
        try {
            final Map<TaskId, Long> rates = LiveStates.inputRates(delegate);
            Timeline.event("input-rates", "known=" + rates.values().stream().filter(r -> r >= 0).count() + "/"
                + rates.size() + " total=" + rates.values().stream().mapToLong(r -> Math.max(0, r)).sum());
        } catch (final RuntimeException e) {
            Timeline.event("input-rates", "error: " + e);
        }
        if (strategy.equals("kip441")) {
            try {
                Timeline.event("kafka-agreement", KafkaAgreement.check(applicationState, out));
            } catch (final RuntimeException e) {
                Timeline.event("kafka-agreement", "error: " + e);
            }
        }
        return out;
    }

    @Override
    public void onAssignmentComputed(final GroupAssignment assignment, final GroupSubscription subscription,
                                     final AssignmentError error) {
        delegate.onAssignmentComputed(assignment, subscription, error);
        final Pending p = pending;
        if (p == null || error != AssignmentError.NONE) {
            Timeline.event("handout", "skipped error=" + error);
            return;
        }
        final Map<ProcessId, List<List<TaskId>>> byProcess = new TreeMap<>();
        final Map<TaskId, ProcessId> ownedBy = new HashMap<>();
        for (final Map.Entry<String, Assignment> member : assignment.groupAssignment().entrySet()) {
            final Subscription s = subscription.groupSubscription().get(member.getKey());
            final ProcessId process = SubscriptionInfo.decode(s.userData().duplicate()).processId();
            s.ownedPartitions().stream().map(p.sources()::get).filter(Objects::nonNull)
                .forEach(t -> ownedBy.put(t, process));
            final AssignmentInfo info = AssignmentInfo.decode(member.getValue().userData().duplicate());
            final List<List<TaskId>> held = byProcess.computeIfAbsent(process,
                k -> List.of(new ArrayList<>(), new ArrayList<>()));
            held.get(0).addAll(info.activeTasks());
            held.get(1).addAll(info.standbyTasks().keySet());
        }
        // The cooperative protocol hands a moving task to its new owner only in the next round, once the old one
        // has given up its partitions: such a task is checked where the assignor put it.
        final Set<TaskId> handed = new HashSet<>();
        byProcess.values().forEach(held -> handed.addAll(held.get(0)));
        int deferred = 0;
        for (final Map.Entry<TaskId, ProcessId> planned : p.activeOn().entrySet()) {
            final ProcessId owner = ownedBy.get(planned.getKey());
            if (!handed.contains(planned.getKey()) && owner != null && !owner.equals(planned.getValue())
                && byProcess.containsKey(planned.getValue())) {
                // Meanwhile the new owner keeps its copy as a standby.
                byProcess.get(planned.getValue()).get(1).remove(planned.getKey());
                byProcess.get(planned.getValue()).get(0).add(planned.getKey());
                deferred++;
            }
        }
        final HandoutCheck check = new HandoutCheck(p.standbys(), p.warmups(), p.tasks());
        byProcess.values().forEach(held -> check.client(held.get(0), held.get(1)));
        Timeline.event("handout", check.violations().map(v -> "invalid: " + v)
            .orElse("valid processes=" + byProcess.size() + " deferred=" + deferred));
    }
}
