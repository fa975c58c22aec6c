package io.smoothscale.kafka;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskInfo;
import org.apache.kafka.streams.processor.assignment.TaskTopicPartition;

/**
 * Writes a KIP-924 {@link ApplicationState} as a state message (docs/crossing-format.md; docs/kafka-streams.md
 * maps every field). Lags are sent sparsely: a client's lag is sent for the tasks it reported offsets for
 * ({@link KafkaStreamsState#prevTasksByLag} over its consumers); every other stateful task's lag there is the
 * task's end offset sum, which is read once per task from a client that did not report it. The work is
 * proportional to the reported offsets plus tasks plus clients, never tasks × clients.
 */
final class StateEncoder {
    /** {@code AssignmentConfigs.rackAwareAssignmentStrategy()} values, in the format's code order. */
    private static final List<String> RACK_STRATEGIES = List.of("none", "min_traffic", "balance_subtopology");
    private static final int MAGIC = 0x31534D53; // "SMS1"
    private static final int VERSION = 3;
    private static final int ABSENT = -1;

    private final Map<String, Integer> stringIndex = new HashMap<>();
    private final LittleEndianWriter strings = new LittleEndianWriter(1024);

    private StateEncoder() {
    }

    /**
     * Encodes {@code app}.
     *
     * @throws SmoothscaleInputException for what the format cannot express (a named topology, a negative setting)
     */
    static EncodedState encode(final ApplicationState app) {
        return encode(app, app.kafkaStreamsStates(true), OptionalLong.empty(), InputRateObserver.Reading.NONE);
    }

    /**
     * Encodes {@code app}, whose streams states with lags are {@code states}, with the restore rate the leader
     * observed ({@link RestoreRateObserver}), records per second, if any, and the input offsets it read
     * ({@link InputRateObserver}). The bytes are those the Rust encoder ({@code bindings/jni/src/state.rs}) writes for
     * the same state, held to {@code bindings/crossing/state.bin}.
     *
     * @throws SmoothscaleInputException for what the format cannot express (a named topology, a negative setting)
     */
    static EncodedState encode(final ApplicationState app, final Map<ProcessId, KafkaStreamsState> states,
                               final OptionalLong observedRestoreRate, final InputRateObserver.Reading input) {
        return new StateEncoder().write(app, states, observedRestoreRate, input);
    }

    private int string(final String s) {
        return stringIndex.computeIfAbsent(s, k -> {
            strings.str(k);
            return stringIndex.size();
        });
    }

    private EncodedState write(final ApplicationState app, final Map<ProcessId, KafkaStreamsState> states,
                               final OptionalLong observedRestoreRate, final InputRateObserver.Reading input) {
        final AssignmentConfigs configs = app.assignmentConfigs();
        final List<ProcessId> clients = new ArrayList<>(states.keySet());
        Collections.sort(clients);
        final List<Map.Entry<TaskId, TaskInfo>> infos = new ArrayList<>(app.allTasks().entrySet());
        infos.sort(Map.Entry.comparingByKey());
        final List<TaskId> tasks = new ArrayList<>(infos.size());
        final boolean[] stateful = new boolean[infos.size()];
        for (final Map.Entry<TaskId, TaskInfo> e : infos) {
            final TaskId id = e.getKey();
            if (id.topologyName() != null) {
                throw new SmoothscaleInputException("task " + id + " belongs to named topology " + id.topologyName()
                    + ": named topologies are not supported");
            }
            stateful[tasks.size()] = e.getValue().isStateful();
            tasks.add(id);
        }
        final TaskPositions positions = new TaskPositions(tasks);
        final int[] previousOwner = new int[tasks.size()];
        Arrays.fill(previousOwner, -1);
        final int rackStrategy = RACK_STRATEGIES.indexOf(configs.rackAwareAssignmentStrategy());
        if (rackStrategy < 0) {
            throw new SmoothscaleInputException("rack.aware.assignment.strategy must be one of "
                + String.join(", ", RACK_STRATEGIES) + ", got \"" + configs.rackAwareAssignmentStrategy() + "\"");
        }

        final LittleEndianWriter body = new LittleEndianWriter(64 * tasks.size() + 128 * clients.size());
        final List<int[]> reported = new ArrayList<>(clients.size());
        for (final ProcessId pid : clients) {
            reported.add(reportedTasks(states.get(pid), positions));
        }
        body.i32(tasks.size());
        for (final Map.Entry<TaskId, TaskInfo> e : infos) {
            final TaskId id = e.getKey();
            final TaskInfo info = e.getValue();
            body.i32(id.subtopology());
            body.i32(id.partition());
            body.u8(info.isStateful() ? 1 : 0);
            body.i64(info.isStateful() ? endOffsetSum(id, positions.of(id), clients, states, reported) : 0L);
            body.i64(input.now(id));
            // Racks are asked for only when KIP-925 is on: Kafka fetches them lazily, with an admin call.
            writeRacks(body, rackStrategy == 0 ? Set.of() : info.topicPartitions(), true);
            writeRacks(body, rackStrategy == 0 ? Set.of() : info.topicPartitions(), false);
        }
        body.i32(clients.size());
        for (int c = 0; c < clients.size(); c++) {
            final KafkaStreamsState s = states.get(clients.get(c));
            body.i32(s.numProcessingThreads());
            body.i32(s.rackId().map(this::string).orElse(ABSENT));
            body.i32(s.hostInfo().map(h -> string(h.host() + ":" + h.port())).orElse(ABSENT));
            // By key, as the Rust encoder writes them: one state, one message.
            final Map<String, String> tags = s.clientTags().size() < 2 ? s.clientTags() : new TreeMap<>(s.clientTags());
            body.i32(tags.size());
            for (final Map.Entry<String, String> tag : tags.entrySet()) {
                body.i32(string(tag.getKey()));
                body.i32(string(tag.getValue()));
            }
            writeTaskList(body, s.previousActiveTasks(), positions, null, c, previousOwner);
            writeTaskList(body, s.previousStandbyTasks(), positions, stateful, c, null);
            final int lagsAt = body.size();
            body.i32(0);
            int lags = 0;
            for (final int index : reported.get(c)) {
                body.i32(index);
                body.i64(s.lagFor(tasks.get(index)));
                lags++;
            }
            body.patchI32(lagsAt, lags);
        }

        final List<String> tagKeys = configs.rackAwareAssignmentTags();
        final int[] tagKeyIndex = tagKeys.stream().mapToInt(this::string).toArray();
        final LittleEndianWriter out = new LittleEndianWriter(body.size() + 256);
        out.i32(MAGIC);
        out.i32(VERSION);
        out.i32(nonNegative("num.standby.replicas", configs.numStandbyReplicas()));
        out.i64(nonNegative("acceptable.recovery.lag", configs.acceptableRecoveryLag()));
        out.i32(nonNegative("max.warmup.replicas", configs.maxWarmupReplicas()));
        out.i64(nonNegative("probing.rebalance.interval.ms", configs.probingRebalanceIntervalMs()));
        out.u8(rackStrategy);
        out.i32(configs.rackAwareTrafficCost().orElse(ABSENT));
        out.i32(configs.rackAwareNonOverlapCost().orElse(ABSENT));
        out.i32(tagKeyIndex.length);
        for (final int k : tagKeyIndex) {
            out.i32(k);
        }
        out.i32(stringIndex.size());
        out.append(strings);
        out.append(body);
        out.i64(observedRestoreRate.isPresent() ? Math.max(1, observedRestoreRate.getAsLong()) : ABSENT);
        out.i64(input.elapsedMs() < 0 ? ABSENT : input.elapsedMs());
        for (final TaskId id : tasks) {
            out.i64(input.then(id));
        }
        return new EncodedState(out.toByteArray(), List.copyOf(clients), List.copyOf(tasks), positions, previousOwner);
    }

    /**
     * The positions of the stateful tasks a client reported offsets for (the union over its consumers),
     * sorted. Kafka's {@code prevTasksByLag} sets are only iterated: their comparator looks lags up, so a
     * {@code contains} on them would cost two lag lookups per comparison.
     */
    private static int[] reportedTasks(final KafkaStreamsState s, final TaskPositions positions) {
        int[] out = new int[0];
        int n = 0;
        for (final String consumer : s.consumerClientIds()) {
            for (final TaskId id : s.prevTasksByLag(consumer)) {
                final int p = positions.of(id);
                if (p >= 0) {
                    if (n == out.length) {
                        out = Arrays.copyOf(out, Math.max(8, 2 * n));
                    }
                    out[n++] = p;
                }
            }
        }
        out = Arrays.copyOf(out, n);
        Arrays.sort(out);
        return Arrays.stream(out).distinct().toArray();
    }

    /**
     * A task's end offset sum: its lag on the first client that did not report it (Kafka counts an unreported
     * task as fully behind). When every client reported it, no lag in the state depends on it; the largest
     * reported lag is sent.
     */
    private static long endOffsetSum(final TaskId id, final int position, final List<ProcessId> clients,
                                     final Map<ProcessId, KafkaStreamsState> states, final List<int[]> reported) {
        for (int c = 0; c < clients.size(); c++) {
            if (Arrays.binarySearch(reported.get(c), position) < 0) {
                return states.get(clients.get(c)).lagFor(id);
            }
        }
        long largest = 0;
        for (final ProcessId pid : clients) {
            largest = Math.max(largest, states.get(pid).lagFor(id));
        }
        return largest;
    }

    /**
     * The racks where every source (or changelog) partition of the task has a replica: with KIP-925's cost,
     * a client in one of them reads nothing across racks. Empty when a partition's racks are unknown.
     */
    private void writeRacks(final LittleEndianWriter body, final Set<TaskTopicPartition> partitions, final boolean source) {
        Set<String> common = null;
        for (final TaskTopicPartition p : partitions) {
            if (source ? !p.isSource() : !p.isChangelog()) {
                continue;
            }
            final Optional<Set<String>> racks = p.rackIds();
            if (racks.isEmpty() || racks.get().isEmpty()) {
                common = Set.of();
                break;
            }
            if (common == null) {
                common = new TreeSet<>(racks.get());
            } else {
                common.retainAll(racks.get());
            }
        }
        final Set<String> racks = common == null ? Set.of() : new TreeSet<>(common);
        body.i32(racks.size());
        for (final String r : racks) {
            body.i32(string(r));
        }
    }

    /**
     * A previous-task list. Tasks no longer in the topology (and, for standbys, tasks no longer stateful) are
     * left out, as Kafka's own assignors never place them.
     *
     * @param statefulOnly the tasks' stateful flags when only stateful tasks count, else {@code null}
     * @param owners when not {@code null}, records client {@code c} as the owner of each task written
     */
    private static void writeTaskList(final LittleEndianWriter body, final Set<TaskId> ids, final TaskPositions positions,
                                      final boolean[] statefulOnly, final int c, final int[] owners) {
        final int countAt = body.size();
        body.i32(0);
        int n = 0;
        for (final TaskId id : ids) {
            final int i = positions.of(id);
            if (i >= 0 && (statefulOnly == null || statefulOnly[i])) {
                body.i32(i);
                if (owners != null) {
                    owners[i] = c;
                }
                n++;
            }
        }
        body.patchI32(countAt, n);
    }

    private static int nonNegative(final String key, final int v) {
        if (v < 0) {
            throw new SmoothscaleInputException(key + " must be at least 0, got " + v);
        }
        return v;
    }

    private static long nonNegative(final String key, final long v) {
        if (v < 0) {
            throw new SmoothscaleInputException(key + " must be at least 0, got " + v);
        }
        return v;
    }
}
