package io.smoothscale.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
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
 * Small hand-made application states for the adapter's unit tests, built from Kafka's own
 * {@link DefaultKafkaStreamsState} and {@link DefaultTaskInfo}: lags are dense, as Kafka computes them (an
 * unreported task's lag is its end offset sum), and a client's reported tasks are its consumers' previous tasks.
 */
final class AppStates {
    private final Map<TaskId, Long> endOffsets = new TreeMap<>();
    private final Map<TaskId, TaskInfo> tasks = new TreeMap<>();
    private final List<Client> clients = new ArrayList<>();
    private AssignmentConfigs configs = new AssignmentConfigs(10_000L, 2, 0, 600_000L, List.of(),
        OptionalInt.empty(), OptionalInt.empty(), "none");

    /** One process under construction. */
    final class Client {
        final ProcessId id;
        final int threads;
        final SortedMap<TaskId, Long> reported = new TreeMap<>();
        final TreeSet<TaskId> active = new TreeSet<>();
        final TreeSet<TaskId> standby = new TreeSet<>();
        final Map<String, String> tags = new HashMap<>();
        Optional<String> rack = Optional.empty();

        Client(final ProcessId id, final int threads) {
            this.id = id;
            this.threads = threads;
        }

        /** Previously ran {@code t} as a caught-up active (reports Kafka's LATEST_OFFSET, −2). */
        Client active(final TaskId t) {
            active.add(t);
            reported.put(t, -2L);
            return this;
        }

        /** Previously held a standby of {@code t}, {@code lag} records behind. */
        Client standby(final TaskId t, final long lag) {
            standby.add(t);
            reported.put(t, lag);
            return this;
        }

        /** Reports {@code lag} for {@code t} (state on disk, no previous role). */
        Client lag(final TaskId t, final long lag) {
            reported.put(t, lag);
            return this;
        }

        Client rack(final String rack) {
            this.rack = Optional.of(rack);
            return this;
        }

        Client tag(final String key, final String value) {
            tags.put(key, value);
            return this;
        }

        AppStates done() {
            return AppStates.this;
        }
    }

    static ProcessId pid(final int i) {
        return new ProcessId(new UUID(0L, i + 1L));
    }

    AppStates stateful(final int subtopology, final int partitions, final long endOffset) {
        for (int p = 0; p < partitions; p++) {
            final TaskId t = new TaskId(subtopology, p);
            endOffsets.put(t, endOffset);
            tasks.put(t, new DefaultTaskInfo(t, true, Set.of("store"), Set.of()));
        }
        return this;
    }

    AppStates stateless(final int subtopology, final int partitions) {
        for (int p = 0; p < partitions; p++) {
            final TaskId t = new TaskId(subtopology, p);
            tasks.put(t, new DefaultTaskInfo(t, false, Set.of(), Set.of()));
        }
        return this;
    }

    /**
     * A stateless task {@code subtopology_partition} reading one source partition per entry of
     * {@code partitionRacks} (topics {@code in-0}, {@code in-1}, …), each replicated on those racks;
     * {@code fetches} counts Kafka's lazy rack-id fetches.
     */
    AppStates statelessWithRacks(final int subtopology, final int partition, final List<Set<String>> partitionRacks,
                                 final int[] fetches) {
        final TaskId t = new TaskId(subtopology, partition);
        final Set<TaskTopicPartition> partitions = new HashSet<>();
        for (int i = 0; i < partitionRacks.size(); i++) {
            final DefaultTaskTopicPartition p = new DefaultTaskTopicPartition(new TopicPartition("in-" + i, partition),
                true, false, () -> fetches[0]++);
            p.annotateWithRackIds(partitionRacks.get(i));
            partitions.add(p);
        }
        tasks.put(t, new DefaultTaskInfo(t, false, Set.of(), partitions));
        return this;
    }

    AppStates configs(final AssignmentConfigs configs) {
        this.configs = configs;
        return this;
    }

    Client client(final int i, final int threads) {
        final Client c = new Client(pid(i), threads);
        clients.add(c);
        return c;
    }

    ApplicationState build() {
        final Map<ProcessId, KafkaStreamsState> states = new HashMap<>();
        for (final Client c : clients) {
            final Map<TaskId, Long> lags = new TreeMap<>();
            endOffsets.forEach((t, end) -> lags.put(t, c.reported.getOrDefault(t, end)));
            final SortedMap<String, Set<TaskId>> byConsumer = new TreeMap<>();
            for (int k = 0; k < c.threads; k++) {
                byConsumer.put(c.id + "-StreamThread-" + (k + 1) + "-consumer", new TreeSet<>());
            }
            if (c.threads > 0) {
                byConsumer.get(byConsumer.firstKey()).addAll(c.reported.keySet());
            }
            states.put(c.id, new DefaultKafkaStreamsState(c.id, c.threads, c.tags, c.active, c.standby, byConsumer,
                Optional.empty(), Optional.of(lags), c.rack));
        }
        return of(states, configs, Map.copyOf(tasks));
    }

    /** The application state with these processes, configs and tasks (the lags are the states' own). */
    static ApplicationState of(final Map<ProcessId, KafkaStreamsState> states, final AssignmentConfigs configs,
                               final Map<TaskId, TaskInfo> tasks) {
        return new ApplicationState() {
            @Override
            public Map<ProcessId, KafkaStreamsState> kafkaStreamsStates(final boolean computeTaskLags) {
                return states;
            }

            @Override
            public AssignmentConfigs assignmentConfigs() {
                return configs;
            }

            @Override
            public Map<TaskId, TaskInfo> allTasks() {
                return tasks;
            }
        };
    }
}
