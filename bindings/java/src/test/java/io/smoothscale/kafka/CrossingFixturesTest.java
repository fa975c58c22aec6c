package io.smoothscale.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.ClientSpec;
import io.smoothscale.kafka.testkit.CrossingState;
import io.smoothscale.kafka.testkit.TaskSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
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
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

/**
 * The crossing format held to golden bytes ({@code bindings/crossing/}, its README): Java's encoders write each
 * fixture Java sends from the content built here, and Java's decoders read the fixtures Rust sends to the value
 * built here. The Rust tests ({@code bindings/jni/src/golden.rs}) hold the Rust side to the same files, so a change
 * to the format on one side fails the other's tests.
 *
 * <p>With the environment variable {@code SMOOTHSCALE_BLESS} set, the fixtures Java writes
 * ({@code state.bin}, {@code handout.bin}, {@code observation.bin}) are rewritten first.
 */
class CrossingFixturesTest {
    private static final TaskId T00 = new TaskId(0, 0);
    private static final TaskId T01 = new TaskId(0, 1);
    private static final TaskId T02 = new TaskId(0, 2);
    private static final TaskId T10 = new TaskId(1, 0);

    /** The bytes of fixture {@code name}, after writing {@code written} there first when asked to. */
    private static byte[] fixture(final String name, final byte[] written) {
        final Path path = Path.of(System.getProperty("smoothscale.crossing.dir", "../crossing")).resolve(name);
        try {
            if (written != null && System.getenv("SMOOTHSCALE_BLESS") != null) {
                Files.write(path, written);
            }
            return Files.readAllBytes(path);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static TaskTopicPartition partition(final String topic, final int p, final boolean changelog,
                                                final Set<String> racks) {
        final DefaultTaskTopicPartition tp =
            new DefaultTaskTopicPartition(new TopicPartition(topic, p), !changelog, changelog, () -> { });
        tp.annotateWithRackIds(racks);
        return tp;
    }

    private static SortedSet<TaskId> tasks(final TaskId... ids) {
        return new TreeSet<>(List.of(ids));
    }

    /**
     * One process: {@code reported} its lags for the tasks it reported offsets for (one consumer reports them all),
     * every other stateful task of the fixture at its end offset, as Kafka computes lags.
     */
    private static KafkaStreamsState process(final int i, final int threads, final Map<String, String> tags,
                                             final SortedSet<TaskId> active, final SortedSet<TaskId> standby,
                                             final Map<TaskId, Long> reported, final Optional<HostInfo> host,
                                             final Optional<String> rack) {
        final ProcessId pid = AppStates.pid(i);
        final Map<TaskId, Long> lags = new TreeMap<>(Map.of(T00, 1_000L, T01, 500L));
        lags.putAll(reported);
        final SortedMap<String, Set<TaskId>> byConsumer = new TreeMap<>();
        for (int k = 0; k < threads; k++) {
            byConsumer.put(pid + "-StreamThread-" + (k + 1) + "-consumer", new HashSet<>());
        }
        byConsumer.get(byConsumer.firstKey()).addAll(reported.keySet());
        return new DefaultKafkaStreamsState(pid, threads, tags, active, standby, byConsumer, host, Optional.of(lags),
            rack);
    }

    /**
     * What {@code state.bin} holds, as Kafka passes it (the Rust tests build the same {@code ClusterState}): every
     * setting, with a traffic cost set and the non-overlap cost not; a stateful task whose input and changelog
     * partitions are on different racks, another, and a stateless one; a process with a rack, a host, a tag, two
     * previous actives (one stateless) and a running and a record lag; one with two tags (written by key), a
     * previous standby and a record and an unknown lag; one with only a tag; and an observed restore rate. Its input
     * offsets are {@link #INPUT}.
     */
    static ApplicationState state() {
        final Map<TaskId, TaskInfo> tasks = new HashMap<>();
        tasks.put(T00, new DefaultTaskInfo(T00, true, Set.of("store"), Set.of(
            partition("in", 0, false, Set.of("r1", "r2")), partition("changelog", 0, true, Set.of("r2")))));
        tasks.put(T01, new DefaultTaskInfo(T01, true, Set.of("store"), Set.of(
            partition("in", 1, false, Set.of("r1")), partition("changelog", 1, true, Set.of("r1", "r2")))));
        tasks.put(T10, new DefaultTaskInfo(T10, false, Set.of(), Set.of(partition("other", 0, false, Set.of("r2")))));
        final Map<ProcessId, KafkaStreamsState> states = new HashMap<>();
        states.put(AppStates.pid(0), process(0, 2, Map.of("zone", "a"), tasks(T00, T10), tasks(),
            Map.of(T00, -2L, T01, 40L), Optional.of(new HostInfo("a", 9092)), Optional.of("r1")));
        states.put(AppStates.pid(1), process(1, 1, Map.of("zone", "b", "disk", "ssd"), tasks(), tasks(T00),
            Map.of(T00, 7L, T01, -3L), Optional.empty(), Optional.of("r2")));
        states.put(AppStates.pid(2), process(2, 1, Map.of("zone", "a"), tasks(), tasks(), Map.of(),
            Optional.empty(), Optional.empty()));
        final AssignmentConfigs configs = new AssignmentConfigs(100L, 3, 1, 120_000L, List.of("zone"),
            OptionalInt.of(5), OptionalInt.empty(), "min_traffic");
        return AppStates.of(states, configs, tasks);
    }

    /** The shortest window the core's rule reads, the one the Rust encoder writes input rates over. */
    private static final long WINDOW_MS = NativeBridge.inputRateWindowMs();

    /**
     * The input offsets of {@code state.bin}, in the form the Rust encoder writes input rates (offsets 0 then the
     * records of {@link #WINDOW_MS}, over it): 0_0 reads 250 records/s, 1_0 (stateless) 40, 0_1's are unknown.
     */
    static final InputRateObserver.Reading INPUT = new InputRateObserver.Reading(WINDOW_MS,
        new TreeMap<>(Map.of(T00, 0L, T10, 0L)),
        new TreeMap<>(Map.of(T00, 250 * WINDOW_MS / 1_000, T10, 40 * WINDOW_MS / 1_000)));

    private static EncodedState encodedState() {
        final ApplicationState app = state();
        return StateEncoder.encode(app, app.kafkaStreamsStates(true), OptionalLong.of(12_345), INPUT);
    }

    @Test
    void theStateEncoderWritesStateBin() {
        final byte[] written = encodedState().bytes();
        assertArrayEquals(fixture("state.bin", written), written);
        // The core reads the input rates from the offsets, in the message's task order (0_0, 0_1, 1_0).
        assertArrayEquals(new long[] {250, -1, 40}, NativeBridge.inputRates(written));
    }

    @Test
    void theTestDecoderReadsStateBin() {
        final SortedMap<Integer, Long> reported0 = new TreeMap<>(Map.of(0, -2L, 1, 40L));
        final SortedMap<Integer, Long> reported1 = new TreeMap<>(Map.of(0, 7L, 1, -3L));
        final AppSpec want = new AppSpec(1, 100, 3, 120_000, List.of("zone"), "min_traffic",
            List.of(new TaskSpec(0, 0, true, 1_000, List.of("r1", "r2"), List.of("r2")),
                new TaskSpec(0, 1, true, 500, List.of("r1"), List.of("r1", "r2")),
                new TaskSpec(1, 0, false, 0, List.of("r2"), List.of())),
            List.of(new ClientSpec(2, "r1", new TreeMap<>(Map.of("zone", "a")), new TreeSet<>(Set.of(0, 2)),
                    new TreeSet<>(), reported0),
                new ClientSpec(1, "r2", new TreeMap<>(Map.of("zone", "b", "disk", "ssd")), new TreeSet<>(),
                    new TreeSet<>(Set.of(0)),
                    reported1),
                new ClientSpec(1, null, new TreeMap<>(Map.of("zone", "a")), new TreeSet<>(), new TreeSet<>(),
                    new TreeMap<>())));
        assertEquals(want, CrossingState.decode(fixture("state.bin", null)));
    }

    /** What {@code plan.bin} holds, Rust's answer to {@code state.bin} using every field of the plan message. */
    @Test
    void decodedPlanReadsPlanBin() {
        final DecodedPlan want = new DecodedPlan(
            List.of(new DecodedPlan.ClientPlan(List.of(T00, T10), List.of(), List.of()),
                new DecodedPlan.ClientPlan(List.of(T01), List.of(T00), List.of()),
                new DecodedPlan.ClientPlan(List.of(), List.of(T01), List.of(T00))),
            OptionalLong.of(43_900), List.of(T00), List.of("a note", "ünïcode ✓"));
        assertEquals(want, DecodedPlan.read(fixture("plan.bin", null), encodedState()));
    }

    /**
     * What {@code handout.bin} holds: three tasks, one stateless; a task's second standby (a warm-up); a task listed
     * twice on one client.
     */
    @Test
    void handoutCheckWritesHandoutBin() {
        final Map<TaskId, Boolean> tasks = Map.of(T00, true, T01, true, T10, false);
        final HandoutCheck check = new HandoutCheck(1, 2, tasks)
            .client(List.of(T00, T10), List.of(T01))
            .client(List.of(T01), List.of(T00, T00))
            .client(List.of(), List.of(T00, T01));
        final byte[] written = check.message();
        assertArrayEquals(fixture("handout.bin", written), written);
        assertEquals(Optional.of("client c1 is given task 0_0 twice as standby"), check.violations());
    }

    /**
     * What {@code observation.bin} holds: the leader returned a plan a minute ago with replicas on three processes;
     * process 0 restored 6,000 + 18,000 records and is still behind (400 records/s), process 1's lag on 0_2 grew
     * and it reports 0_1's lag as unknown, process 2 is gone.
     */
    @Test
    void theObserverWritesObservationBin() {
        final Instant then = Instant.parse("2026-12-03T12:00:00Z");
        final Map<ProcessId, KafkaStreamsState> before = new HashMap<>();
        before.put(AppStates.pid(0), lags(0, Map.of(T00, 9_000L, T01, 20_000L, T02, 70L)));
        before.put(AppStates.pid(1), lags(1, Map.of(T00, 0L, T01, 5_000L, T02, 800L)));
        before.put(AppStates.pid(2), lags(2, Map.of(T00, 50_000L)));
        final List<ProcessId> clients = List.of(AppStates.pid(0), AppStates.pid(1), AppStates.pid(2));
        final List<TaskId> all = List.of(T00, T01, T02);
        final EncodedState state = new EncodedState(new byte[0], clients, all, new TaskPositions(all), new int[3]);
        final DecodedPlan plan = new DecodedPlan(
            List.of(new DecodedPlan.ClientPlan(List.of(T02), List.of(T00), List.of(T01)),
                new DecodedPlan.ClientPlan(List.of(T00), List.of(T01, T02), List.of()),
                new DecodedPlan.ClientPlan(List.of(T01), List.of(), List.of(T00))),
            OptionalLong.empty(), List.of(), List.of());
        final RestoreRateObserver observer = new RestoreRateObserver();
        observer.remember(then, state, plan, before);

        final Map<ProcessId, KafkaStreamsState> now = new HashMap<>();
        now.put(AppStates.pid(0), lags(0, Map.of(T00, 3_000L, T01, 2_000L, T02, -2L)));
        now.put(AppStates.pid(1), lags(1, Map.of(T00, -2L, T01, -3L, T02, 900L)));
        final byte[] written = observer.message(then.plusMillis(60_000), now, 100);
        assertArrayEquals(fixture("observation.bin", written), written);
        assertEquals(OptionalLong.of(400), observer.observe(then.plusMillis(60_000), now, 100));
    }

    /** A process with one thread reporting exactly {@code lags}. */
    private static KafkaStreamsState lags(final int i, final Map<TaskId, Long> lags) {
        final ProcessId pid = AppStates.pid(i);
        final SortedMap<String, Set<TaskId>> byConsumer = new TreeMap<>(Map.of(pid + "-consumer", lags.keySet()));
        return new DefaultKafkaStreamsState(pid, 1, Map.of(), tasks(), tasks(), byConsumer, Optional.empty(),
            Optional.of(lags), Optional.empty());
    }
}
